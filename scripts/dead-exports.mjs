// Lists exports of src/, workers/ and supervisor/ that no other file names, and exits 1 when there
// are any. A name is "used" when it appears as a word in any other TypeScript file of the project
// (tests and benchmarks included), so dynamic imports (`const { x } = await import(…)`) and
// re-exports from an index count; folder index files themselves are not checked.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (path.endsWith('.ts')) out.push(path)
  }
  return out
}

const checked = ['src', 'workers', 'supervisor'].flatMap((d) => walk(join(root, d)))
const all = ['src', 'workers', 'supervisor', 'test', 'bench'].flatMap((d) => walk(join(root, d)))
const texts = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]))
const dead = []
for (const file of checked) {
  if (file.endsWith('/index.ts')) continue
  const source = ts.createSourceFile(file, texts.get(file), ts.ScriptTarget.Latest, true)
  for (const statement of source.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue
    const names = ts.isVariableStatement(statement) ? statement.declarationList.declarations.map((d) => d.name.getText(source)) : statement.name ? [statement.name.getText(source)] : []
    for (const name of names) {
      const word = new RegExp(`\\b${name.replace(/[$]/g, '\\$')}\\b`)
      if (!all.some((other) => other !== file && word.test(texts.get(other)))) dead.push(`${relative(root, file)}: ${name}`)
    }
  }
}
if (dead.length > 0) {
  process.stderr.write(`Exports no other file uses (drop the export, or the code):\n${dead.map((d) => `  ${d}`).join('\n')}\n`)
  process.exit(1)
}
process.stdout.write(`dead-exports: ${checked.length} files, no export without a user\n`)
