// The linter holds the architecture (ARCHITECTURE.md, "Top-level layout" and decisions 2 and 10):
// no import cycles, layers import downward only, the environment is read in src/config alone,
// and nothing outside src/db branches on the engine's name.
import tseslint from 'typescript-eslint'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

const SURFACES = ['src/cli', 'src/service', 'supervisor']
const TRANSPORTS = ['src/mcp', 'src/http']
const FOUNDATION = ['src/db', 'src/config', 'src/errors', 'src/util']
const CAPABILITIES = [
  'activity',
  'agents',
  'auth',
  'capture',
  'chunking',
  'code',
  'convert',
  'doctor',
  'embedding',
  'export',
  'frontmatter',
  'history',
  'import',
  'ingestion',
  'integrations',
  'links',
  'memory',
  'models',
  'oauth',
  'pages',
  'queue',
  'release',
  'search',
  'skills',
  'sources',
  'sync',
  'update',
  'upgrade',
].map((name) => `src/${name}`)

/** `from` folders may not be imported by `target` folders. */
const zone = (target, from) => ({ target: target.map((t) => `./${t}`), from: from.map((f) => `./${f}`) })

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'bin/**', 'scripts/**', 'eslint.config.js'] },
  {
    files: ['src/**/*.ts', 'workers/**/*.ts', 'supervisor/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // no-cycle reads the modules an import leads to: they are TypeScript too.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone(FOUNDATION, [...CAPABILITIES, 'src/operations', ...TRANSPORTS, ...SURFACES, 'workers']),
            zone(CAPABILITIES, ['src/operations', ...TRANSPORTS, ...SURFACES, 'workers']),
            zone(['src/operations', 'workers'], [...TRANSPORTS, ...SURFACES]),
            zone(TRANSPORTS, SURFACES),
          ],
        },
      ],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read the environment in src/config only; take a Config or a BrainEnv.' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(pglite|postgres)$/]',
          message: 'Do not branch on the engine outside src/db: ask for a capability (db.capabilities) or a src/db helper.',
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  { files: ['src/config/**/*.ts'], rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' } },
  { files: ['src/db/**/*.ts'], rules: { 'no-restricted-syntax': 'off' } },
)
