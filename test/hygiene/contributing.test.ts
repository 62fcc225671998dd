// test-runner: shares a process
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import ts from 'typescript'
import { packageRoot } from '../../src/util/index.js'

const root = packageRoot()
const guide = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')

/** The guide's examples marked to compile: a ```ts block whose info string is `ts compile <path>`. */
function compiledExamples(markdown: string): Array<{ path: string; code: string }> {
  return [...markdown.matchAll(/^```ts compile (\S+)\n([\s\S]*?)^```$/gm)].map((m) => ({ path: m[1], code: m[2] }))
}

/** Type-checks `code` as if it were the file at `path`, against the project's sources and settings. */
function typeErrors(path: string, code: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (config === undefined) throw new Error('tsconfig.json does not parse')
  const file = join(root, path)
  const options = { ...config.options, noEmit: true, incremental: false }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (name) => name === file || ts.sys.fileExists(name)
  host.readFile = (name) => (name === file ? code : readFile(name))
  host.getSourceFile = (name, language) => (name === file ? ts.createSourceFile(name, code, language, true) : getSourceFile(name, language))
  const program = ts.createProgram({ rootNames: [file], options, host })
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

t.test('the examples CONTRIBUTING.md marks to compile type-check as the files they name', async (t) => {
  const examples = compiledExamples(guide)
  t.ok(examples.length >= 1, 'the operation example is marked')
  for (const { path, code } of examples) t.same(typeErrors(path, code), [], path)
})

t.test('the compile check can fail', async (t) => {
  const [example] = compiledExamples(guide)
  t.not(typeErrors(example.path, example.code.replace('mutating: false', "mutating: 'no'")).length, 0)
})

t.test('the migration guide names no number below the newest migration', async (t) => {
  const newest = Math.max(...readdirSync(join(root, 'migrations')).flatMap((name) => (/^(\d{4})_/.exec(name) ? [Number(name.slice(0, 4))] : [])))
  const section = guide.slice(guide.indexOf('## Adding a migration'), guide.indexOf('\n## ', guide.indexOf('## Adding a migration') + 1))
  for (const [, number] of section.matchAll(/`(\d{4})_/g)) t.ok(Number(number) > newest, `${number} is above ${newest}`)
})
