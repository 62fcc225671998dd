// The linter holds the architecture of docs/architecture.md: the folder table of eslint/folders.js
// (what each folder may import, through its index.ts), no import cycles, layers import downward
// only, the environment is read in src/config alone, and nothing outside src/db branches on the
// engine's name.
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import tseslint from 'typescript-eslint'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import architecture from './eslint/folder-imports.js'
import { FOLDERS } from './eslint/folders.js'

const root = dirname(fileURLToPath(import.meta.url))
const path = (name) => (name === 'workers' || name === 'supervisor' ? name : name === 'src' ? 'src/index.ts' : `src/${name}`)
const inLayer = (layer) =>
  Object.entries(FOLDERS)
    .filter(([, rule]) => rule.layer === layer)
    .map(([name]) => path(name))
const SURFACES = inLayer('surface')
const TRANSPORTS = inLayer('transport')
const OPERATIONS = inLayer('operations')
const CAPABILITIES = inLayer('capability')
const FOUNDATION = inLayer('foundation')

/** `from` folders may not be imported by `target` folders. */
const zone = (target, from) => ({ target: target.map((t) => `./${t}`), from: from.map((f) => `./${f}`) })

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'bin/**', 'scripts/**', 'eslint/**', 'eslint.config.js'] },
  {
    files: ['src/**/*.ts', 'workers/**/*.ts', 'supervisor/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin, brain: architecture },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // no-cycle reads the modules an import leads to: they are TypeScript too.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'brain/folder-imports': ['error', { root }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone(FOUNDATION, [...CAPABILITIES, ...OPERATIONS, ...TRANSPORTS, ...SURFACES]),
            zone(CAPABILITIES, [...OPERATIONS, ...TRANSPORTS, ...SURFACES]),
            zone(OPERATIONS, [...TRANSPORTS, ...SURFACES]),
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
  {
    // The web app: browser modules the checkJs project of ui/tsconfig.json types. Page text becomes
    // nodes through textContent only, so nothing here may parse HTML.
    files: ['ui/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    plugins: { 'import-x': importX },
    rules: {
      'no-unused-vars': 'error',
      'import-x/no-cycle': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML|insertAdjacentHTML|write|writeln|createContextualFragment)$/]',
          message: 'Build nodes with el()/svg() and textContent; page text must never be parsed as HTML.',
        },
      ],
    },
  },
  { files: ['src/config/**/*.ts'], rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' } },
  { files: ['src/db/**/*.ts'], rules: { 'no-restricted-syntax': 'off' } },
)
