/**
 * bench/frontmatter: files/s of `frontmatter validate`, `--fix` and `audit` on generated notes
 * (one in ten broken, cycling through the seven codes). No database: the scan is file work.
 *
 *   node dist/bench/frontmatter/run.js [--files N]
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { auditSources, runValidate, type PageRoot } from '../../src/frontmatter/index.js'
import type { SourceRecord } from '../../src/intake/sources/source-repository.js'

const BROKEN = [
  (n: number) => `# note ${n} without front matter\n`,
  (n: number) => `---\ntitle: Note ${n}\n\n# Note ${n}\n`,
  (n: number) => `---\ntitle: [Note ${n}\n---\n`,
  (n: number) => `---\ntitle: Note ${n}\nslug: elsewhere/${n}\n---\n`,
  (n: number) => `---\ntitle: Note ${n}\u0000\n---\n`,
  (n: number) => `---\ntitle: "Note "${n}""\n---\n`,
  () => `---\n---\nbody\n`,
]

function note(n: number): string {
  if (n % 10 === 0) return BROKEN[(n / 10) % BROKEN.length]!(n)
  const body = Array.from({ length: 20 }, (_, i) => `Line ${i} of note ${n}, with some words to read.`).join('\n')
  return `---\ntitle: Note ${n}\ntype: note\ntags: [bench, n${n % 7}]\ncreated: 2026-01-01\n---\n# Note ${n}\n\n${body}\n`
}

function writeCorpus(files: number): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'brain-bench-fm-')))
  for (let n = 0; n < files; n++) {
    const dir = join(root, `d${n % 50}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `note-${n}.md`), note(n))
  }
  return root
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now()
  const value = await fn()
  return { value, seconds: (performance.now() - started) / 1000 }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--files')
  const files = at > 0 ? Number(process.argv[at + 1]) : 5000
  const root = writeCorpus(files)
  const roots: PageRoot[] = [{ sourceId: 'bench', path: root, config: { strategy: 'markdown', include: [], exclude: [], syncEnabled: true } }]
  const target = [{ path: root, isDirectory: true }]
  try {
    const validate = await timed(() => runValidate({ targets: target, roots, fix: false, dryRun: false }))
    const source: SourceRecord = { id: 'bench', name: 'bench', localPath: root, lastCommit: null, config: roots[0]!.config!, chunkerVersion: null, createdAt: new Date(), updatedAt: new Date() }
    const audit = await timed(() => auditSources([source], { roots }))
    const fix = await timed(() => runValidate({ targets: target, roots, fix: true, dryRun: false }))
    const rows = [
      ['validate', validate.seconds, validate.value.files, validate.value.filesWithIssues],
      ['audit', audit.seconds, audit.value.totals.files, audit.value.totals.filesWithIssues],
      ['validate --fix', fix.seconds, fix.value.files, fix.value.results.filter((r) => r.backup).length],
    ] as const
    console.log('| operation | files | with problems / rewritten | seconds | files/s |')
    console.log('|---|---|---|---|---|')
    for (const [name, seconds, count, issues] of rows) console.log(`| ${name} | ${count} | ${issues} | ${seconds.toFixed(2)} | ${Math.round(count / seconds)} |`)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
