/**
 * Measures code chunking throughput over directories (not a test):
 *   node dist/test/chunking/measure.js <dir> [<dir> ...]
 * Reads every code file first, then times chunkCode alone, grammar loading included.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chunkCode, isCodePath } from '../../src/chunking/index.js'

function codeFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) codeFiles(path, out)
    else if (entry.isFile() && isCodePath(path)) out.push(path)
  }
  return out
}

const files = process.argv
  .slice(2)
  .flatMap((dir) => codeFiles(dir))
  .map((path) => ({ path, content: readFileSync(path, 'utf8') }))
const started = performance.now()
let chunks = 0
for (const file of files) chunks += (await chunkCode(file)).length
const seconds = (performance.now() - started) / 1000
const bytes = files.reduce((sum, f) => sum + f.content.length, 0)
console.log(
  `${files.length} files, ${(bytes / 1e6).toFixed(2)} MB, ${chunks} chunks in ${seconds.toFixed(2)} s: ` + `${(files.length / seconds).toFixed(0)} files/s, ${(chunks / seconds).toFixed(0)} chunks/s`,
)
