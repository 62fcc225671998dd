/** Whether a service (or lock holder) is still running, as `service stop` and the locks ask it. */
import t from 'tap'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { processAlive } from '../../src/util/process-alive.js'

function state(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.charAt(stat.lastIndexOf(')') + 2)
  } catch {
    return null
  }
}

t.test('a running process is alive; one that exited but is not reaped is not', { skip: process.platform !== 'linux' && 'reads /proc' }, async (t) => {
  // The shell starts a short child and becomes `sleep`, which never reaps it: a zombie.
  const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] })
  t.teardown(() => void parent.kill('SIGKILL'))
  const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))))
  t.ok(processAlive(parent.pid!), 'the parent runs')
  while (state(zombie) !== 'Z') {
    if (state(zombie) === null) throw new Error('the child left the process table before it was seen as a zombie')
    await new Promise((r) => setTimeout(r, 20))
  }
  t.doesNotThrow(() => process.kill(zombie, 0), 'signal 0 still reaches the zombie')
  t.notOk(processAlive(zombie), 'but it counts as gone')
  t.notOk(processAlive(2 ** 22 + 12345), 'a pid nobody has is not alive')
})
