/**
 * bench/tools: what each MCP tool profile costs an agent before it calls anything — the
 * tools/list answer of `brain serve --tools <profile>` over stdio, as tools, bytes and cl100k
 * tokens of its JSON-RPC result.
 *
 *   node dist/bench/tools/run.js [--json]
 *
 * Each profile runs in its own `brain serve` process on an empty embedded brain (listing opens
 * no database); the answer is read off the wire, so the figures are what a client receives.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { countTokens } from '../../src/embedding/index.js'
import { TOOL_PROFILES } from '../../src/operations/index.js'
import { packageRoot } from '../../src/util/package-root.js'

interface Row {
  profile: string
  tools: number
  bytes: number
  tokens: number
}

/** The `result` of tools/list, as the text it arrived in. */
async function listOverStdio(profile: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-tools-'))
  const child = spawn(process.execPath, [join(packageRoot(), 'bin', 'brain.js'), 'serve', '--tools', profile], {
    env: { PATH: process.env.PATH ?? '', BRAIN_HOME: home, BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local' },
    stdio: ['pipe', 'pipe', 'ignore'],
  })
  try {
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    const send = (message: unknown): void => void child.stdin.write(`${JSON.stringify(message)}\n`)
    send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })
    await lines.next()
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const answer = await lines.next()
    if (answer.done === true) throw new Error(`brain serve --tools ${profile} ended without answering`)
    return JSON.stringify((JSON.parse(answer.value) as { result: unknown }).result)
  } finally {
    child.stdin.end()
    child.kill()
    rmSync(home, { recursive: true, force: true })
  }
}

const rows: Row[] = []
for (const profile of TOOL_PROFILES) {
  const result = await listOverStdio(profile)
  rows.push({ profile, tools: (JSON.parse(result) as { tools: unknown[] }).tools.length, bytes: Buffer.byteLength(result), tokens: countTokens(result) })
}
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
} else {
  process.stdout.write('| profile | tools | bytes  | cl100k tokens |\n| ------- | ----- | ------ | ------------- |\n')
  for (const row of rows) process.stdout.write(`| ${row.profile.padEnd(7)} | ${String(row.tools).padStart(5)} | ${String(row.bytes).padStart(6)} | ${String(row.tokens).padStart(13)} |\n`)
}
