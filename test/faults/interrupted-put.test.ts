import t from 'tap'
import type { Test } from 'tap'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cliBrain, spawnBrain, type CliBrain } from '../helpers/cli.js'
import { stopChild } from '../helpers/processes.js'
import { ENGINES } from '../helpers/engines.js'

/** A 1.5 MiB page: big enough that the client is still sending when it is stopped. */
function bigPage(marker: string): string {
  const line = `${marker} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`
  return `# ${marker}\n\n${line.repeat(Math.ceil((1.5 * 1024 * 1024) / line.length))}`
}

/** Writes `bytes` into the child's stdin and resolves once the pipe has taken them. */
function feed(stdin: NodeJS.WritableStream, bytes: string): Promise<void> {
  return new Promise((resolve, reject) => stdin.write(bytes, (err) => (err ? reject(err) : resolve())))
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()
}

async function repoBrain(t: Test, engine: (typeof ENGINES)[number]): Promise<{ brain: CliBrain; repo: string }> {
  const brain = await cliBrain(engine, { mode: 'service' })
  t.teardown(brain.cleanup)
  const repo = mkdtempSync(join(tmpdir(), 'brain-put-repo-'))
  t.equal((await brain.run(['config', 'set', 'sync.repo_path', repo])).code, 0)
  return { brain, repo }
}

type StopHow = 'SIGINT' | 'SIGKILL'
const CASES: Array<{ how: StopHow; fraction: number }> = [
  { how: 'SIGINT', fraction: 0.5 },
  { how: 'SIGKILL', fraction: 0.5 },
  { how: 'SIGKILL', fraction: 0.99 },
]

for (const engine of ENGINES) {
  t.test(`${engine}: a put cut off before the end of its input stores nothing`, async (t) => {
    const { brain, repo } = await repoBrain(t, engine)
    const original = '# Original\n\nThe page as it was before.\n'
    t.equal((await brain.run(['put', 'notes/x', '--no-embed'], { input: original })).code, 0)
    const onDisk = readFileSync(join(repo, 'notes/x.md'), 'utf8')
    const filesBefore = allFiles(repo)

    for (const { how, fraction } of CASES) {
      for (const slug of ['notes/x', `notes/new-${how}-${fraction}`]) {
        const content = bigPage(`Replacement ${how} ${fraction}`)
        const client = spawnBrain(['put', slug, '--no-embed'], brain.env)
        t.teardown(() => stopChild(client))
        const exited = new Promise<number | null>((resolve) => client.once('exit', (code) => resolve(code)))
        client.stdin.on('error', () => undefined)
        await feed(client.stdin, content.slice(0, Math.floor(content.length * fraction)))
        process.kill(client.pid!, how)
        const code = await exited
        t.not(code, 0, `${how} at ${fraction * 100} %: the client does not report success (${slug})`)

        const got = await brain.run(['get', slug])
        if (slug === 'notes/x') {
          t.equal(got.code, 0)
          t.equal(got.stdout.includes('The page as it was before.'), true, `${how} at ${fraction * 100} %: the page is unchanged`)
          t.equal(readFileSync(join(repo, 'notes/x.md'), 'utf8'), onDisk, 'the write-through file is unchanged')
        } else {
          t.not(got.code, 0, `${how} at ${fraction * 100} %: no new page was stored`)
        }
        t.same(allFiles(repo), filesBefore, 'no file appeared in the repository, temporary or not')
      }
    }

    // The same page sent whole still goes in, so the refusal above was about the cut, not the size.
    const whole = bigPage('Whole')
    const put = await brain.run(['put', 'notes/x', '--no-embed'], { input: whole })
    t.equal(put.code, 0, put.stderr)
    t.ok(readFileSync(join(repo, 'notes/x.md'), 'utf8').includes('Whole'), 'a complete input is written through')
    t.ok(existsSync(join(repo, 'notes/x.md')))
  })
}
