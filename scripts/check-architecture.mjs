// Checks what the linter cannot see file by file: that every src/<folder>/index.ts header states
// the folder's "May import:" list exactly as eslint/folders.js declares it, that
// docs/architecture.md states the same lists and draws the floors the table makes, and that no
// import cycle exists among the files of src/, workers/ and supervisor/ — type-only imports, re-exports
// and import() calls included. Exits 1 and lists the problems. With --write it rewrites the
// headers' "May import:" lines from the table instead of reporting them. A room (ROOMS) is checked
// for what it may hold: sub-folders and an index.ts that describes them, exports nothing and states
// no "May import:" list, since no folder may import a room.
import { readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { DEEP_IMPORTS, FOLDERS, LAZY_ENTRIES, ROOMS } from '../eslint/folders.js'
import { documentDrawing, drawingBlock } from './draw-architecture.mjs'

const defaultRoot = join(dirname(fileURLToPath(import.meta.url)), '..')

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (path.endsWith('.ts')) out.push(path)
  }
  return out
}

/** The relative module specifiers a TypeScript file names, however it names them. */
export function specifiersOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text)
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text)
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) found.push(node.argument.literal.text)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression))
      found.push(node.moduleReference.expression.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found.filter((s) => s.startsWith('.'))
}

/** file → the files it imports, repository-relative, over src/, workers/ and supervisor/. */
export function importGraph(root = defaultRoot) {
  const graph = new Map()
  for (const dir of ['src', 'workers', 'supervisor']) {
    for (const file of walk(join(root, dir))) {
      const targets = specifiersOf(file, readFileSync(file, 'utf8')).map((s) => relative(root, resolve(dirname(file), s)).replace(/\.js$/, '.ts'))
      graph.set(
        relative(root, file),
        [...new Set(targets)].filter((t) => existsSync(join(root, t))),
      )
    }
  }
  return graph
}

/** The cycles of a graph: each strongly connected component of more than one file, or a file that imports itself. */
export function findCycles(graph) {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const cycles = []
  let next = 0
  const connect = (node) => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target)
        low.set(node, Math.min(low.get(node), low.get(target)))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)))
    }
    if (low.get(node) !== index.get(node)) return
    const component = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) connect(node)
  return cycles
}

const HEADER_LIST = /May import:\s*([^.]*)\./

/** The "May import:" list a header states, or undefined when it states none. */
export function declaredImports(text) {
  const header = /^\/\*\*([\s\S]*?)\*\//.exec(text)
  if (header === null) return undefined
  const prose = header[1]
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join(' ')
  const list = HEADER_LIST.exec(prose)
  if (list === null) return undefined
  const words = list[1].trim()
  if (words === 'every folder') return '*'
  if (words === 'nothing of brain') return []
  return words.split(/\s*,\s*/).filter((w) => w !== '')
}

/** The "May import:" text of a folder's table entry. */
export function importsLine(rule) {
  if (rule.imports === '*') return 'every folder'
  if (rule.imports.length === 0) return 'nothing of brain'
  return [...rule.imports].sort().join(', ')
}

const sameList = (a, b) => (a === '*' || b === '*' ? a === b : a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]))

const isDirectory = (path) => statSync(path).isDirectory()

/** The folders present under src/, by the table's names: top-level folders, and each room's sub-folders. */
function presentFolders(root) {
  const found = []
  for (const name of readdirSync(join(root, 'src')).filter((n) => isDirectory(join(root, 'src', n)))) {
    if (!Object.hasOwn(ROOMS, name)) found.push(name)
    else for (const sub of readdirSync(join(root, 'src', name)).filter((n) => isDirectory(join(root, 'src', name, n)))) found.push(`${name}/${sub}`)
  }
  return found
}

/** What is wrong with a room: files beside its index.ts, or an index.ts without a header, with a "May import:" list, or with code. */
export function roomProblems(root = defaultRoot) {
  const problems = []
  for (const room of Object.keys(ROOMS)) {
    const dir = join(root, 'src', room)
    if (!existsSync(dir)) {
      problems.push(`eslint/folders.js declares the room ${room}, which is not a folder of src/`)
      continue
    }
    for (const name of readdirSync(dir)) if (name !== 'index.ts' && !isDirectory(join(dir, name))) problems.push(`src/${room}/${name}: a room holds only sub-folders and its index.ts`)
    const index = join(dir, 'index.ts')
    if (!existsSync(index)) {
      problems.push(`src/${room}/ has no index.ts`)
      continue
    }
    const text = readFileSync(index, 'utf8')
    const header = /^\/\*\*[\s\S]*?\*\//.exec(text)
    if (header === null) problems.push(`src/${room}/index.ts has no header saying what the room holds`)
    else if (declaredImports(text) !== undefined) problems.push(`src/${room}/index.ts: a room imports nothing, so its header states no "May import:" list`)
    if (header !== null && text.slice(header[0].length).trim() !== 'export {}') problems.push(`src/${room}/index.ts: a room exports nothing (only \`export {}\` after its header)`)
  }
  return problems
}

/** Folders of src/ whose index.ts header is missing, lacks the list, or states another list than the table. */
export function headerProblems(root = defaultRoot) {
  const problems = roomProblems(root)
  const folders = presentFolders(root)
  for (const name of folders) {
    const rule = FOLDERS[name]
    if (rule === undefined) {
      problems.push(`src/${name}/ is not in eslint/folders.js`)
      continue
    }
    const index = join(root, 'src', name, 'index.ts')
    if (!existsSync(index)) {
      problems.push(`src/${name}/ has no index.ts`)
      continue
    }
    const declared = declaredImports(readFileSync(index, 'utf8'))
    if (declared === undefined) problems.push(`src/${name}/index.ts: its header has no "May import: ${importsLine(rule)}." line`)
    else if (!sameList(declared, rule.imports))
      problems.push(`src/${name}/index.ts: its header says "May import: ${declared === '*' ? 'every folder' : declared.join(', ')}.", the table "${importsLine(rule)}."`)
  }
  for (const name of Object.keys(FOLDERS)) {
    if (name !== 'src' && name !== 'workers' && name !== 'supervisor' && !folders.includes(name)) problems.push(`eslint/folders.js declares ${name}, which is not a folder of src/`)
  }
  for (const [name, files] of Object.entries(LAZY_ENTRIES)) {
    for (const file of files) if (!existsSync(join(root, 'src', name, file))) problems.push(`LAZY_ENTRIES names src/${name}/${file}, which does not exist`)
  }
  for (const [from, targets] of Object.entries(DEEP_IMPORTS)) {
    for (const file of [from, ...targets]) if (!existsSync(join(root, file))) problems.push(`DEEP_IMPORTS names ${file}, which does not exist`)
  }
  return problems
}

/**
 * What docs/architecture.md says otherwise than the table: a folder whose row is missing or states
 * another "may import" list, or a drawing of the floors other than the one the table makes.
 */
export function documentProblems(root = defaultRoot) {
  const text = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
  const rows = new Map()
  for (const line of text.split('\n')) {
    const cells = /^\| `([a-z]+(?:\/[a-z]+)?)`[^|]*\|.*\| ([^|]+) \|$/.exec(line)
    if (cells !== null) rows.set(cells[1], cells[2].trim())
  }
  const problems = []
  for (const [name, rule] of Object.entries(FOLDERS)) {
    const row = rows.get(name)
    if (row === undefined) problems.push(`docs/architecture.md has no row for ${name}`)
    else if (row !== importsLine(rule)) problems.push(`docs/architecture.md says ${name} may import "${row}", the table "${importsLine(rule)}"`)
  }
  const drawing = documentDrawing(text)
  if (drawing === undefined) problems.push('docs/architecture.md has no drawing between the markers scripts/draw-architecture.mjs writes')
  else if (drawing !== drawingBlock()) problems.push('docs/architecture.md draws other floors than eslint/folders.js makes: run node scripts/draw-architecture.mjs --write')
  return problems
}

/** Rewrites each index.ts header's "May import:" line from the table (adding it before the header's end when missing). */
function writeHeaders(root) {
  for (const [name, rule] of Object.entries(FOLDERS)) {
    const index = join(root, 'src', name, 'index.ts')
    if (!existsSync(index)) continue
    const text = readFileSync(index, 'utf8')
    const header = /^\/\*\*[\s\S]*?\*\//.exec(text)
    if (header === null) continue
    const line = wrap(`May import: ${importsLine(rule)}.`)
    const lines = header[0].split('\n')
    const start = lines.findIndex((l) => l.includes('May import:'))
    let end = start
    while (start >= 0 && !/May import:[^.]*\./.test(lines.slice(start, end + 1).join(' '))) end++
    const rewritten = start >= 0 ? [...lines.slice(0, start), ...line, ...lines.slice(end + 1)] : [...lines.slice(0, -1), ...line, lines[lines.length - 1]]
    writeFileSync(index, text.replace(header[0], rewritten.join('\n')))
  }
}

function wrap(sentence) {
  const out = []
  let current = ' *'
  for (const word of sentence.split(' ')) {
    if (current.length + word.length + 1 > 100) {
      out.push(current)
      current = ' *'
    }
    current += ` ${word}`
  }
  return [...out, current]
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--write')) writeHeaders(defaultRoot)
  const problems = [...headerProblems(defaultRoot), ...documentProblems(defaultRoot), ...findCycles(importGraph(defaultRoot)).map((cycle) => `import cycle: ${cycle.join(' → ')}`)]
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`)
    process.exit(1)
  }
  process.stdout.write(
    `check-architecture: ${Object.keys(FOLDERS).length} folders declared alike in eslint/folders.js, their headers and docs/architecture.md (its drawing included); no import cycle\n`,
  )
}
