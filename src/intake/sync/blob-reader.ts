import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { ProviderError } from '../../errors/index.js'

interface Pending {
  resolve: (bytes: Buffer) => void
  reject: (err: Error) => void
}

/**
 * Reads committed blobs through one long-lived `git cat-file --batch`, so syncing thousands of
 * files costs one process, not one per file. Requests are answered in order; git replies to each
 * `<sha>\n` with `<sha> blob <size>\n<bytes>\n` or `<sha> missing\n`.
 */
export class BlobReader {
  private readonly child: ChildProcessWithoutNullStreams
  private buffer: Buffer = Buffer.alloc(0)
  /** Data not yet joined into `buffer`: joining on every chunk would copy a large blob quadratically. */
  private chunks: Buffer[] = []
  private chunkBytes = 0
  /** Bytes the current reply needs before it can be parsed; 0 while the header is incomplete. */
  private needed = 0
  private readonly queue: Pending[] = []
  private failure: Error | null = null
  private stderr = ''

  constructor(dir: string) {
    this.child = spawn('git', ['cat-file', '--batch'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
    this.child.stdout.on('data', (data: Buffer) => {
      this.chunks.push(data)
      this.chunkBytes += data.length
      if (this.buffer.length + this.chunkBytes < this.needed) return
      this.buffer = Buffer.concat([this.buffer, ...this.chunks.splice(0)])
      this.chunkBytes = 0
      this.drain()
    })
    this.child.stderr.on('data', (data: Buffer) => (this.stderr += data.toString()))
    this.child.on('error', (err) => this.fail(new ProviderError('git_failed', `git cat-file could not run: ${err.message}`, { cause: err })))
    this.child.on('close', () => this.fail(new ProviderError('git_failed', `git cat-file ended early${this.stderr ? `: ${this.stderr.trim()}` : ''}`)))
    // A closed pipe is reported through 'close'; without a listener it would crash the process.
    this.child.stdin.on('error', () => undefined)
  }

  /** The bytes of a blob. */
  read(sha: string): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure)
    if (!/^[0-9a-f]{40,64}$/i.test(sha)) return Promise.reject(new ProviderError('git_bad_object', `Not an object id: ${sha}`))
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject })
      this.child.stdin.write(`${sha}\n`)
    })
  }

  close(): void {
    this.failure ??= new ProviderError('git_reader_closed', 'The blob reader is closed.')
    this.child.stdin.end()
    for (const pending of this.queue.splice(0)) pending.reject(this.failure)
  }

  private fail(err: Error): void {
    if (!this.failure) this.failure = err
    for (const pending of this.queue.splice(0)) pending.reject(this.failure)
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const newline = this.buffer.indexOf(0x0a)
      if (newline < 0) return
      const header = this.buffer.subarray(0, newline).toString('utf8')
      const parts = header.split(' ')
      if (parts[1] === 'missing' || parts.length < 3) {
        this.buffer = this.buffer.subarray(newline + 1)
        this.queue.shift()!.reject(new ProviderError('git_object_missing', `git object ${parts[0]} is missing.`))
        continue
      }
      const size = Number(parts[2])
      const end = newline + 1 + size
      if (this.buffer.length < end + 1) {
        this.needed = end + 1
        return
      }
      this.needed = 0
      const bytes = Buffer.from(this.buffer.subarray(newline + 1, end))
      this.buffer = this.buffer.subarray(end + 1)
      this.queue.shift()!.resolve(bytes)
    }
  }
}
