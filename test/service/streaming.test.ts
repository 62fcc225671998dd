// test-runner: shares a process
import t from 'tap'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { createInterface } from 'node:readline'
import type { CommandContext, BrainHost } from '../../src/service/command-context.js'
import { forward } from '../../src/service/client.js'
import { currentIdentity } from '../../src/service/identity.js'
import { servicePaths } from '../../src/service/paths.js'
import { Frame, FrameDecoder, encodeFrame, type Hello } from '../../src/service/protocol.js'
import { Session } from '../../src/service/session.js'

const noHost: BrainHost = {
  database: () => Promise.reject(new Error('no brain in this test')),
  workerOn: () => Promise.resolve(null),
  attachWorker: () => Promise.resolve(null),
  webApp: () => Promise.reject(new Error('no web app in this test')),
}

const TERMINAL = { stdinIsTTY: false, stdoutIsTTY: true, stderrIsTTY: false, stdoutColumns: 123, stderrColumns: null, colorDepth: 8 }

/** A socket server running `command` for each client through the real Session. */
async function fakeService(home: string, command: (argv: string[], context: CommandContext) => Promise<number>): Promise<Server> {
  const paths = servicePaths(home)
  const server = createServer((socket) => {
    let session: Session | null = null
    const decoder = new FrameDecoder((type, payload) => {
      if (session) return session.onFrame(type, payload)
      const hello = JSON.parse(payload.toString()) as Extract<Hello, { kind: 'run' }>
      session = new Session(socket, hello, { host: noHost, runCli: command })
      void session.run()
    })
    socket.on('data', (chunk: Buffer) => decoder.push(chunk))
    socket.on('error', () => undefined)
  })
  await new Promise<void>((resolve) => server.listen(paths.socket, resolve))
  return server
}

t.test('stdin and stdout stream both ways while the command runs', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-stream-'))
  let seen: CommandContext | null = null
  const server = await fakeService(home, async (argv, context) => {
    seen = context
    // An echo server: each line is answered before the next one is sent.
    for await (const line of createInterface({ input: context.stdin })) context.stdout.write(`echo ${line}\n`)
    context.stderr.write(`done ${argv.join(' ')}\n`)
    return 7
  })
  t.teardown(() => server.close())
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const lines = createInterface({ input: stdout })[Symbol.asyncIterator]()
  const running = forward({ argv: ['serve', '--x'], cwd: '/somewhere', env: { A: '1' }, home, stdin, stdout, stderr, terminal: TERMINAL })
  for (const word of ['one', 'two', 'three']) {
    stdin.write(`${word}\n`)
    t.equal((await lines.next()).value, `echo ${word}`, `the answer to ${word} arrives before stdin ends`)
  }
  stdin.end()
  t.equal(await running, 7, 'the exit code comes back')
  let err = ''
  stderr.on('data', (d: Buffer) => (err += d.toString()))
  await new Promise((r) => setImmediate(r))
  t.equal(err, 'done serve --x\n')
  const context = seen as unknown as CommandContext
  t.equal(context.cwd, '/somewhere')
  t.same(context.env, { A: '1' })
  t.equal((context.stdout as unknown as { isTTY?: boolean; columns?: number }).isTTY, true)
  t.equal((context.stdout as unknown as { columns?: number }).columns, 123)
  t.not((context.stderr as unknown as { isTTY?: boolean }).isTTY, true, "stderr is not a terminal when the client's is not")
})

t.test('Ctrl-C in the client and a vanished client both abort the command', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-stream-'))
  const aborted: string[] = []
  const server = await fakeService(home, async (argv, context) => {
    context.stdout.write('started\n')
    await new Promise<void>((resolve) => context.signal!.addEventListener('abort', () => resolve(), { once: true }))
    aborted.push(argv[0]!)
    return 130
  })
  t.teardown(() => server.close())

  const interrupt = new AbortController()
  const stdout = new PassThrough()
  stdout.once('data', () => interrupt.abort())
  const code = await forward({ argv: ['first'], cwd: '/', env: {}, home, stdin: new PassThrough(), stdout, stderr: new PassThrough(), terminal: TERMINAL, interrupt: interrupt.signal })
  t.equal(code, 130)

  // A raw client that says hello and disappears.
  const { connect } = await import('node:net')
  const socket = connect(servicePaths(home).socket)
  await new Promise((r) => socket.once('connect', r))
  const hello: Hello = { kind: 'run', argv: ['second'], cwd: '/', env: {}, terminal: TERMINAL, ...currentIdentity() }
  socket.write(encodeFrame(Frame.hello, JSON.stringify(hello)))
  await new Promise((r) => socket.once('data', r))
  socket.destroy()
  const deadline = Date.now() + 5000
  while (aborted.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  t.same(aborted.sort(), ['first', 'second'])
})
