/**
 * `npm run bench -- <name> [args…]` runs one benchmark (`bench/<name>/run.ts`, compiled) with the
 * given arguments; without a name it lists them with the first line of their description.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

function benchmarks(): string[] {
  return readdirSync(here, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(here, entry.name, 'run.js')))
    .map((entry) => entry.name)
    .sort()
}

/** The first sentence of the doc comment at the top of a benchmark's source. */
function summary(name: string): string {
  const source = join(here, '..', '..', 'bench', name, 'run.ts')
  if (!existsSync(source)) return ''
  const comment = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(source, 'utf8'))?.[1] ?? ''
  const text = comment
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join(' ')
    .trim()
  const withoutName = text.replace(new RegExp(`^bench/${name}:\\s*`), '')
  return (withoutName.split(/(?<=[.:])\s/)[0] ?? '').slice(0, 110)
}

const [name, ...args] = process.argv.slice(2)
if (name === undefined || !benchmarks().includes(name)) {
  if (name !== undefined) process.stderr.write(`No benchmark named ${name}.\n`)
  process.stdout.write(
    `Usage: npm run bench -- <name> [args…]\n\n${benchmarks()
      .map((b) => `  ${b.padEnd(12)} ${summary(b)}`)
      .join('\n')}\n`,
  )
  process.exit(name === undefined ? 0 : 2)
}
const run = spawnSync(process.execPath, [join(here, name, 'run.js'), ...args], { stdio: 'inherit' })
process.exit(run.status ?? 1)
