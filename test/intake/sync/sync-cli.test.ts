import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { ENGINES } from '../../helpers/engines.js'
import { BRAIN_BIN, cliBrain, type CliBrain, servedCliMode } from '../../helpers/cli.js'
import { makeRepo } from './helpers.js'

interface Envelope {
  error: { class: string; code: string; hint: string; message: string }
}

const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0

/** Runs brain under a pseudo-terminal (util-linux `script`), feeding `input` as typed answers. */
function runOnTerminal(brain: CliBrain, args: string[], input: string): Promise<{ code: number; output: string }> {
  const quoted = [process.execPath, BRAIN_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'dumb', ...brain.env }, stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, output }))
    // Answer once the prompt is on screen, as a person would.
    const timer = setInterval(() => {
      if (/\[y\/N\]/.test(output)) {
        clearInterval(timer)
        child.stdin.write(input)
      }
    }, 50)
    child.on('close', () => clearInterval(timer))
  })
}

for (const engine of ENGINES) {
  t.test(`sources add, list, remove and the deprecated repos alias [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const repo = makeRepo({ 'notes/a.md': '# A\n', 'src/x.ts': 'export const x = 1\n' })
    const added = await brain.run(['sources', 'add', 'notes', '--path', repo.dir, '--strategy', 'auto', '--exclude', '**/draft-*', '--name', 'My notes'])
    t.equal(added.code, 0, added.stderr)
    t.same(added.json().config, { strategy: 'auto', include: [], exclude: ['**/draft-*'], sync_enabled: true })
    t.equal(added.json().local_path, realpathSync(repo.dir))
    const dup = await brain.run(['sources', 'add', 'notes', '--path', repo.dir])
    t.equal(dup.code, 1)
    t.equal(dup.json<Envelope>().error.code, 'source_path_taken')
    const badStrategy = await brain.run(['sources', 'add', 'x', '--path', repo.dir, '--strategy', 'everything'])
    t.equal(badStrategy.json<Envelope>().error.code, 'invalid_strategy')

    const synced = await brain.run(['sync', '--source', 'notes', '--no-embed'])
    t.equal(synced.code, 0, synced.stderr)
    t.match(synced.json(), { status: 'synced', source_id: 'notes', added: 2, mode: 'full', full_walk_reason: 'first_sync' })
    t.notOk('slugs' in synced.json(), 'the autopilot alias of touched_slugs stays out of the CLI output')
    const upToDate = await brain.run(['sync', '--source', 'notes', '--no-embed', '--no-json'])
    t.match(upToDate.stdout, /^notes: up to date at [0-9a-f]{10}/)

    const listed = await brain.run(['repos', 'list'])
    t.equal(listed.code, 0)
    t.match(listed.stderr, /`brain repos` is deprecated.*brain sources/)
    const notes = listed.json<Array<{ id: string; pages: number; last_commit: string }>>().find((s) => s.id === 'notes')
    t.match(notes, { pages: 2, last_commit: repo.head() })
    const plainList = await brain.run(['sources', 'list'])
    t.equal(plainList.stderr, '', 'no deprecation hint on the sources spelling')

    const removed = await brain.run(['repos', 'remove', 'notes'])
    t.equal(removed.code, 0, removed.stderr)
    t.same(removed.json(), { id: 'notes', local_path: realpathSync(repo.dir), pages: 2, trashed: 2 })
    t.match(removed.stderr, /deprecated/)
    const protectedDefault = await brain.run(['sources', 'remove', 'default'])
    t.equal(protectedDefault.json<Envelope>().error.code, 'source_protected')
  })

  t.test(`sync --all cost gate: --yes, --dry-run, a pipe, and --json [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const repo = makeRepo({ 'a.md': '# A\n\nsome words to count\n', 'b.md': '# B\n', 'ops/skip.md': '# ops is skipped\n' })
    const off = makeRepo({ 'c.md': '# C\n' })
    await brain.run(['sources', 'add', 'one', '--path', repo.dir])
    await brain.run(['sources', 'add', 'off', '--path', off.dir, '--no-sync'])

    const refused = await brain.run(['sync', '--all'])
    t.equal(refused.code, 2, 'not a terminal: confirmation required')
    const envelope = refused.json<Envelope>().error
    t.equal(envelope.class, 'ConfirmationRequired')
    t.equal(envelope.code, 'sync_cost_confirmation_required')
    t.match(envelope.message, /2 files in 1 source, \d+ tokens, estimated/)
    t.match(envelope.hint, /--yes/)

    const preview = await brain.run(['sync', '--all', '--dry-run'])
    t.equal(preview.code, 0)
    t.match(preview.json(), { status: 'preview', preview: { files: 2, sources: 1, usd_per1k_tokens: 0.00013 } })
    const tokens = preview.json<{ preview: { tokens: number; estimated_usd: number } }>().preview
    t.ok(tokens.tokens > 0)
    t.equal(tokens.estimated_usd, (tokens.tokens / 1000) * 0.00013)

    const listed = await brain.run(['sources', 'list'])
    t.equal(listed.json<Array<{ id: string; last_commit: string | null }>>().find((s) => s.id === 'one')!.last_commit, null, 'neither refusal nor preview synced anything')

    const yes = await brain.run(['sync', '--all', '--yes'])
    t.equal(yes.code, 0, yes.stderr)
    t.match(yes.json(), { status: 'synced', all: true, added: 2, skipped_sources: [{ source_id: 'default' }, { source_id: 'off', reason: 'sync_disabled' }] })

    const noEmbed = await brain.run(['sync', '--all', '--no-embed'])
    t.equal(noEmbed.code, 0, '--no-embed skips the preview and the gate')
    t.equal(noEmbed.json().status, 'up_to_date')
  })

  t.test(`sync --all on a terminal asks [y/N] [${engine}]`, { skip: HAS_SCRIPT ? false : 'util-linux script is not installed' }, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const repo = makeRepo({ 'a.md': '# A\n' })
    await brain.run(['sources', 'add', 'one', '--path', repo.dir])
    const declined = await runOnTerminal(brain, ['sync', '--all'], 'n\n')
    t.equal(declined.code, 1, declined.output)
    t.match(declined.output, /Sync preview: 1 file in 1 source/)
    t.match(declined.output, /Proceed with sync\? \[y\/N\]/)
    t.match(declined.output, /sync cancelled; nothing was changed/)
    const json = await runOnTerminal(brain, ['sync', '--all', '--json'], 'y\n')
    t.equal(json.code, 2, '--json on a terminal never asks')
    t.match(json.output, /"class": "ConfirmationRequired"/)
    const accepted = await runOnTerminal(brain, ['sync', '--all'], 'y\n')
    t.equal(accepted.code, 0, accepted.output)
    t.match(accepted.output, /one: synced full walk \(first_sync\): 1 added/)
  })
}
