// test-runner: shares a process
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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
  roomProblems(root: string): string[]
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
  t.same(await folderImportProblems('src/links/fixture.ts', "import { importFiles } from '../intake/import/index.js'\nexport const f = importFiles\n"), ['undeclared'])
  t.same(await folderImportProblems('src/links/fixture.ts', "import type { ImportFilesResult } from '../intake/import/index.js'\nexport type R = ImportFilesResult\n"), ['undeclared'])
  t.same(await folderImportProblems('src/links/fixture.ts', "import { convert } from '../convert/index.js'\nexport const f = convert\n"), [], 'a declared import through the index passes')
})

t.test('the lint fails on an import that bypasses the target folder’s index.ts', async (t) => {
  const deep = [
    "import { walkFiles } from '../intake/sources/walk.js'\nexport const f = walkFiles\n",
    "import type { WalkedFile } from '../intake/sources/walk.js'\nexport type W = WalkedFile\n",
    "export type W = import('../intake/sources/walk.js').WalkedFile\n",
    "export { walkFiles } from '../intake/sources/walk.js'\n",
    "export const load = () => import('../intake/sources/walk.js')\n",
  ]
  for (const code of deep) t.same(await folderImportProblems('src/frontmatter/fixture.ts', code), ['bypass'], code)
  t.same(await folderImportProblems('src/frontmatter/fixture.ts', "import { walkFiles } from '../intake/sources/index.js'\nexport const f = walkFiles\n"), [], 'through the index passes')
  t.same(
    await folderImportProblems('src/frontmatter/fixture.ts', "export const load = () => import('../intake/sources/source-repository.js')\n"),
    [],
    'a declared lazy entry may be loaded alone with import()',
  )
  t.same(
    await folderImportProblems('src/frontmatter/fixture.ts', "import { listSources } from '../intake/sources/source-repository.js'\nexport const f = listSources\n"),
    ['bypass'],
    'but not imported statically',
  )
  t.same(await folderImportProblems('src/frontmatter/fixture.ts', "import { helper } from './helper.js'\nexport const f = helper\n"), [], 'files of one folder import each other freely')
})

t.test('the folders of a room are folders like any other: declared edges only, through their index', async (t) => {
  // import sits below sync in the intake room: sync may use it, not the other way round.
  t.same(
    await folderImportProblems('src/intake/sync/fixture.ts', "import { importFiles } from '../import/index.js'\nexport const f = importFiles\n"),
    [],
    'a declared sibling through its index passes',
  )
  t.same(await folderImportProblems('src/intake/import/fixture.ts', "import { runSync } from '../sync/index.js'\nexport const f = runSync\n"), ['undeclared'], 'an undeclared sibling fails')
  t.same(
    await folderImportProblems('src/intake/sync/fixture.ts', "import { importFiles } from '../import/import-files.js'\nexport const f = importFiles\n"),
    ['bypass'],
    'a declared sibling past its index fails',
  )
  t.same(
    await folderImportProblems('src/intake/ingestion/sources/fixture.ts', "import { importDocument } from '../../import/import-documents.js'\nexport const f = importDocument\n"),
    ['bypass'],
    'a sub-folder of a room folder belongs to that folder',
  )
  t.same(await folderImportProblems('src/operations/fixture.ts', "export {} from '../intake/index.js'\n"), ['undeclared'], 'no folder imports a room as a whole')
  t.same(
    await folderImportProblems('src/operations/fixture.ts', "import { currentVersion } from '../releases/version/index.js'\nexport const f = currentVersion\n"),
    [],
    'a room folder is reached by its path',
  )
})

t.test('a room holds only its sub-folders and an index.ts that describes them and exports nothing', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'brain-rooms-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'src', 'intake', 'import'), { recursive: true })
  writeFileSync(join(root, 'src', 'intake', 'index.ts'), "/**\n * A room.\n * May import: db.\n */\nexport { x } from './import/index.js'\n")
  writeFileSync(join(root, 'src', 'intake', 'stray.ts'), 'export {}\n')
  t.same(check.roomProblems(root), [
    'src/intake/stray.ts: a room holds only sub-folders and its index.ts',
    'src/intake/index.ts: a room imports nothing, so its header states no "May import:" list',
    'src/intake/index.ts: a room exports nothing (only `export {}` after its header)',
    'eslint/folders.js declares the room releases, which is not a folder of src/',
  ])
  t.same(check.roomProblems(packageRoot()), [], 'the rooms of the tree are sound')
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

t.test('the architecture document fails the check when its drawing is not the table’s', async (t) => {
  const copy = mkdtempSync(join(tmpdir(), 'brain-architecture-'))
  t.teardown(() => rmSync(copy, { recursive: true, force: true }))
  mkdirSync(join(copy, 'docs'))
  const text = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
  // The old drawing's chain of surfaces, where the table has cli above the others.
  const chained = text.replace(/^surfaces .*\n.*\n/m, 'surfaces       0  cli ─ service ─ supervisor ─ src\n')
  t.not(chained, text, 'the drawing was found to change')
  writeFileSync(join(copy, 'docs', 'architecture.md'), chained)
  t.match(check.documentProblems(copy), [/draws other floors than eslint\/folders\.js makes/])
  writeFileSync(join(copy, 'docs', 'architecture.md'), text)
  t.same(check.documentProblems(copy), [], 'the document as it is passes')
})
