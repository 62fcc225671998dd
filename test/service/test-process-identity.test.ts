/**
 * The suite's own teardowns signal only what they started: a pid that has since come round to
 * another process is left alone, whether remembered from a child, a reference or a service's files.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processAlive } from '../../src/util/process-alive.js'
import { servicePid } from '../helpers/cli.js'
import { processRef, stillRunning, stopChild, stopProcess } from '../helpers/processes.js'

const linux = process.platform === 'linux'

t.test('a reference names one process: the same pid started at another time is another', { skip: !linux && 'reads /proc' }, async (t) => {
  const own = processRef(process.pid)
  t.ok(stillRunning(own), 'this process, as read now')
  const reused = { ...own, startedAt: String(Number(own.startedAt) + 1) }
  t.notOk(stillRunning(reused), 'a pid whose start time differs is not the process remembered')
  await stopProcess(reused, 100)
  t.ok(processAlive(process.pid), 'and stopping that reference signals nothing')
})

t.test('a child is stopped through its handle, and one that has exited is not signalled', async (t) => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  t.teardown(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')))
  const ref = processRef(child.pid!)
  await stopChild(child)
  t.equal(child.signalCode, 'SIGTERM', 'stopped by SIGTERM')
  t.notOk(stillRunning(ref), 'its reference no longer runs')
  const calls: string[] = []
  const kill = child.kill.bind(child)
  child.kill = (signal?: NodeJS.Signals | number) => {
    calls.push(String(signal))
    return kill(signal)
  }
  await stopChild(child)
  t.same(calls, [], 'an exited child gets no signal')
})

t.test("a service's files naming a pid that runs outside its home name no service", { skip: !linux && 'reads /proc' }, async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-identity-'))
  t.teardown(() => rmSync(home, { recursive: true, force: true }))
  const elsewhere = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', cwd: tmpdir() })
  const inHome = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', cwd: home })
  t.teardown(() => Promise.all([stopChild(elsewhere), stopChild(inHome)]))
  writeFileSync(join(home, 'service.json'), JSON.stringify({ pid: elsewhere.pid }))
  t.equal(servicePid(home), null, 'a live pid working elsewhere is not this home service')
  writeFileSync(join(home, 'service.json'), JSON.stringify({ pid: inHome.pid }))
  t.equal(servicePid(home), inHome.pid, 'a live pid working in the home is')
})
