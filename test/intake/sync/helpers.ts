/**
 * Real git repositories in temp directories. Identity is set per repository (never the global
 * config) and signing is off, so the tests run the same on any machine.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export class TestRepo {
  constructor(readonly dir: string) {}

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
  }

  write(path: string, body: string | Buffer): this {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true })
    writeFileSync(join(this.dir, path), body)
    return this
  }

  writeAll(files: Record<string, string | Buffer>): this {
    for (const [path, body] of Object.entries(files)) this.write(path, body)
    return this
  }

  remove(path: string): this {
    rmSync(join(this.dir, path))
    return this
  }

  move(from: string, to: string): this {
    mkdirSync(dirname(join(this.dir, to)), { recursive: true })
    renameSync(join(this.dir, from), join(this.dir, to))
    return this
  }

  /** Stages everything and commits; returns the new HEAD. */
  commit(message = 'change'): string {
    this.git('add', '-A')
    this.git('commit', '-q', '--allow-empty', '-m', message)
    return this.head()
  }

  head(): string {
    return this.git('rev-parse', 'HEAD')
  }
}

const created: string[] = []
process.on('exit', () => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true })
})

export function makeRepo(files: Record<string, string | Buffer> = {}, options: { commit?: boolean } = {}): TestRepo {
  const dir = mkdtempSync(join(tmpdir(), 'brain-sync-'))
  created.push(dir)
  const repo = new TestRepo(dir)
  repo.git('init', '-q', '-b', 'main')
  repo.git('config', 'user.name', 'Brain Test')
  repo.git('config', 'user.email', 'brain-test@example.invalid')
  repo.git('config', 'commit.gpgsign', 'false')
  repo.writeAll(files)
  if (options.commit !== false && Object.keys(files).length > 0) repo.commit('initial')
  return repo
}
