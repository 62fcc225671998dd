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

  /**
   * Several git commands, one after another, stopping at the first that fails; the output of the
   * last. They run from one shell, so this process forks once: a test process holding a few
   * embedded brains is large, and each fork of it costs more than the git command it starts.
   */
  gitSequence(commands: readonly (readonly string[])[]): string {
    const script = commands.map((args) => ['git', ...args].map(shellQuoted).join(' ')).join(' && ')
    return execFileSync('sh', ['-c', script], { cwd: this.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
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
    return this.gitSequence(commitCommands(message))
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
  repo.writeAll(files)
  const setUp = [
    ['init', '-q', '-b', 'main'],
    ['config', 'user.name', 'Brain Test'],
    ['config', 'user.email', 'brain-test@example.invalid'],
    ['config', 'commit.gpgsign', 'false'],
  ]
  repo.gitSequence(options.commit !== false && Object.keys(files).length > 0 ? [...setUp, ...commitCommands('initial')] : setUp)
  return repo
}

/** Stage everything, commit, and print the new HEAD. */
function commitCommands(message: string): string[][] {
  return [
    ['add', '-A'],
    ['commit', '-q', '--allow-empty', '-m', message],
    ['rev-parse', 'HEAD'],
  ]
}

/** An argument for sh, quoted so that the shell passes it on unchanged. */
function shellQuoted(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`
}
