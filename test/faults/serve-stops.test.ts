/**
 * Long-running commands run through the brain service end with their client: a killed,
 * interrupted or terminated `brain` must not leave a port serving or a session running inside
 * the service.
 */
import t from 'tap'
import { cliBrain, spawnBrain, type CliBrain } from '../helpers/cli.js'
import { stopChild } from '../helpers/processes.js'
import { freePort } from '../helpers/pg-cluster.js'

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function healthAnswers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`)).ok
  } catch {
    return false
  }
}

async function sessions(brain: CliBrain): Promise<number> {
  const status = await brain.run(['service', 'status', '--json'])
  return status.code === 0 ? status.json<{ clients: number }>().clients : -1
}

t.test('serve --http through the service stops when its client ends', async (t) => {
  const brain = await cliBrain('postgres', { mode: 'service' })
  t.teardown(brain.cleanup)
  t.equal((await brain.run(['list'])).code, 0, 'the service runs')
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
    const port = await freePort()
    const client = spawnBrain(['serve', '--http', '--port', String(port)], brain.env)
    client.stdout.resume()
    client.stderr.resume()
    t.teardown(() => stopChild(client))
    await until(`/health on ${port}`, () => healthAnswers(port))
    process.kill(client.pid!, signal)
    await until(`the port to close after ${signal}`, async () => !(await healthAnswers(port)))
    t.pass(`${signal}: the port stops answering`)
  }
  t.equal((await brain.run(['service', 'status'])).code, 0, 'the service itself stays up')
})

t.test('serve, ingest daemon and jobs work through the service end with their client', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  t.equal((await brain.run(['list'])).code, 0)
  const baseline = await sessions(brain)
  // No directory to watch: the daemon warns, and the warning is the caller's to read.
  const commands = [['serve'], ['ingest', 'daemon', '--no-inbox'], ['jobs', 'work']]
  for (const args of commands) {
    const client = spawnBrain(args, brain.env)
    let said = ''
    client.stdout.resume()
    client.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()))
    t.teardown(() => stopChild(client))
    await until(`brain ${args.join(' ')} to run in the service`, async () => (await sessions(brain)) > baseline)
    if (args[0] === 'ingest') {
      await until('the daemon to say it started, in its own terminal', async () => /daemon started/.test(said))
      t.match(said, /no brain directory to watch/, "its warnings reach the caller's terminal too")
    }
    process.kill(client.pid!, 'SIGKILL')
    await until(`brain ${args.join(' ')} to end in the service`, async () => (await sessions(brain)) === baseline)
    t.pass(`brain ${args.join(' ')}: its session ended with its client`)
  }
})
