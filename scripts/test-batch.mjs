#!/usr/bin/env node
/**
 * Runs several test files in one node process, one after another: each file is imported, and the
 * next only once every subtest the file started has ended.
 *
 *   node scripts/test-batch.mjs <files…>
 *
 * scripts/run-tests.mjs runs the files whose header says `// test-runner: shares a process` this
 * way, a few to a process. Such a file changes nothing outside its own subtests (no environment,
 * working folder, process handlers or top-level work), so the files before it cannot change what
 * it finds. What sharing saves is what every test process pays before its first assertion:
 * starting node and tap, loading the sources under test, and compiling and warming the embedded
 * database's WebAssembly, which makes a process's first brain cost about twice a later one.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'

const started = []
for (const method of ['test', 'todo', 'skip', 'only']) {
  const original = t[method].bind(t)
  t[method] = (...args) => {
    const ended = original(...args)
    started.push(ended)
    return ended
  }
}

for (const file of process.argv.slice(2)) {
  t.comment(`file: ${file}`)
  try {
    await import(pathToFileURL(resolve(file)).href)
  } catch (err) {
    t.fail(`${file} could not be loaded`, { error: err })
  }
  while (started.length > 0) await Promise.allSettled(started.splice(0))
}
