// A local ESLint plugin with one rule, `folder-imports`: an import from another folder must be
// declared in eslint/folders.js and must go through that folder's index.ts. Every way of naming a
// module counts: import and export declarations (type-only ones too), import() calls and
// `import('…').Type` types. Only relative specifiers name our own files; packages are not checked.
import { dirname, relative, resolve } from 'node:path'
import { DEEP_IMPORTS, folderOf, isFolderEntry, isLazyEntry, mayImport } from './folders.js'

/** @type {import('eslint').Rule.RuleModule} */
const folderImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports between folders follow the declared table and go through index.ts (docs/architecture.md).' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false }],
    messages: {
      undeclared:
        "{{from}} may not import {{to}}: declare the edge in eslint/folders.js and in src/{{from}}/index.ts's header (and the drawing in docs/architecture.md), or import through a folder that may.",
      bypass: "Import {{to}} through its index.ts, not {{file}}: export what you need from the folder's index (or, for an import() that must load it alone, list it in LAZY_ENTRIES with the reason).",
    },
  },
  create(context) {
    const root = context.options[0].root
    const file = relative(root, context.filename).split('\\').join('/')
    const from = folderOf(file)
    if (from === undefined) return {}
    const check = (node, lazy = false) => {
      const specifier = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined
      if (specifier === undefined || !specifier.startsWith('.')) return
      const target = relative(root, resolve(dirname(context.filename), specifier))
        .split('\\')
        .join('/')
        .replace(/\.js$/, '.ts')
      const to = folderOf(target)
      if (to === undefined || to === from) return
      if (!mayImport(from, to)) context.report({ node, messageId: 'undeclared', data: { from, to } })
      else if (!isFolderEntry(target) && !(lazy && isLazyEntry(target)) && !(DEEP_IMPORTS[file] ?? []).includes(target)) context.report({ node, messageId: 'bypass', data: { to, file: target } })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source, true),
      TSImportType: (node) => check(node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
    }
  },
}

export default { meta: { name: 'brain-architecture' }, rules: { 'folder-imports': folderImports } }
