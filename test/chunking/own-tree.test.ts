// test-runner: shares a process
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { chunkCode, estimateTokens, isCodePath, DEFAULT_CHUNK_SIZE_TOKENS } from '../../src/chunking/index.js'

/** The project's own TypeScript sources (dist/test/chunking → src). */
const SRC = fileURLToPath(new URL('../../../src', import.meta.url))

function codeFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) codeFiles(path, out)
    else if (entry.isFile() && isCodePath(path)) out.push(path)
  }
  return out
}

// Its speed is the chunking benchmark's to measure: a time limit here fails on a busy machine.
t.test("this project's source tree chunks as code within the chunk budget", async (t) => {
  const files = codeFiles(SRC).map((path) => ({ path, content: readFileSync(path, 'utf8') }))
  t.ok(files.length > 10, 'found the source tree')
  const started = performance.now()
  let chunks = 0
  const overBudget: string[] = []
  for (const file of files) {
    const drafts = await chunkCode(file)
    chunks += drafts.length
    for (const d of drafts) {
      if (estimateTokens(d.text.slice(d.text.indexOf('\n') + 1)) > DEFAULT_CHUNK_SIZE_TOKENS) overBudget.push(`${file.path}:${d.startLine}`)
    }
  }
  const ms = performance.now() - started
  t.comment(`${files.length} files, ${chunks} chunks in ${ms.toFixed(0)} ms (${((files.length * 1000) / ms).toFixed(0)} files/s)`)
  t.ok(chunks >= files.length, 'every file gives at least one chunk')
  t.same(overBudget, [], 'no chunk over the default budget')
})
