import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ESLint } from 'eslint'
import t from 'tap'
import { packageRoot } from '../../src/util/index.js'

interface ArchitectureCheck {
  specifiersOf(file: string, text: string): string[]
  importGraph(root: string): Map<string, string[]>
  findCycles(graph: Map<string, string[]>): string[][]
  headerProblems(root: string): string[]
  documentProblems(root: string): string[]
}

const root = packageRoot()
const check = (await import(pathToFileURL(join(root, 'scripts', 'check-architecture.mjs')).href)) as ArchitectureCheck

// The project's own lint configuration, run on text as if it were a file of the given folder.
const eslint = new ESLint({ cwd: root })
async function folderImportProblems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) })
  return result.messages.filter((m) => m.ruleId === 'brain/folder-imports').map((m) => m.messageId ?? m.message)
}

t.test('the lint fails on an import of a folder the table does not declare', async (t) => {
  // links sits below import: it may not reach up into it, by value or by type.
  t.same(await folderImportProblems('src/links/fixture.ts', "import { importFiles } from '../import/index.js'\nexport const f = importFiles\n"), ['undeclared'])
  t.same(await folderImportProblems('src/links/fixture.ts', "import type { ImportFilesResult } from '../import/index.js'\nexport type R = ImportFilesResult\n"), ['undeclared'])
  t.same(await folderImportProblems('src/links/fixture.ts', "import { convert } from '../convert/index.js'\nexport const f = convert\n"), [], 'a declared import through the index passes')
})

t.test('the lint fails on an import that bypasses the target folder’s index.ts', async (t) => {
  const deep = [
    "import { walkFiles } from '../sources/walk.js'\nexport const f = walkFiles\n",
    "import type { WalkedFile } from '../sources/walk.js'\nexport type W = WalkedFile\n",
    "export type W = import('../sources/walk.js').WalkedFile\n",
    "export { walkFiles } from '../sources/walk.js'\n",
    "export const load = () => import('../sources/walk.js')\n",
  ]
  for (const code of deep) t.same(await folderImportProblems('src/frontmatter/fixture.ts', code), ['bypass'], code)
  t.same(await folderImportProblems('src/frontmatter/fixture.ts', "import { walkFiles } from '../sources/index.js'\nexport const f = walkFiles\n"), [], 'through the index passes')
  t.same(
    await folderImportProblems('src/frontmatter/fixture.ts', "export const load = () => import('../sources/source-repository.js')\n"),
    [],
    'a declared lazy entry may be loaded alone with import()',
  )
  t.same(
    await folderImportProblems('src/frontmatter/fixture.ts', "import { listSources } from '../sources/source-repository.js'\nexport const f = listSources\n"),
    ['bypass'],
    'but not imported statically',
  )
  t.same(await folderImportProblems('src/frontmatter/fixture.ts', "import { helper } from './helper.js'\nexport const f = helper\n"), [], 'files of one folder import each other freely')
})

t.test('no import cycle exists, type-only imports included', async (t) => {
  t.same(
    check.specifiersOf('x.ts', "import type { A } from './a.js'\nexport type { B } from './b.js'\ntype C = import('./c.js').C\nconst d = () => import('./d.js')\n"),
    ['./a.js', './b.js', './c.js', './d.js'],
    'every way of naming a module is an edge',
  )
  const graph = new Map([
    ['src/a/x.ts', ['src/a/y.ts']],
    ['src/a/y.ts', ['src/a/x.ts']],
    ['src/a/z.ts', ['src/a/x.ts']],
  ])
  t.same(check.findCycles(graph), [['src/a/x.ts', 'src/a/y.ts']], 'the check finds a cycle when there is one')
  const real = check.importGraph(root)
  t.ok(real.size > 400, `the graph covers the code (${real.size} files)`)
  t.same(check.findCycles(real), [])
})

t.test('every folder header and the architecture document state the table’s list', async (t) => {
  t.same(check.headerProblems(root), [])
  t.same(check.documentProblems(root), [])
})
