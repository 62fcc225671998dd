/**
 * Builds a BEIR-format known-item set from the markdown files installed under node_modules, to
 * check on a larger corpus than the labelled sets that keyword search tracks the harness's BM25
 * reference: every file is split at its headings, a section is one document (its heading line
 * removed), and a heading of three or more words that names exactly one section is a query
 * whose only relevant document is that section. Deterministic: files and sections in path order.
 *
 *   node dist/bench/retrieval/heading-set.js OUT_DIR [--docs N] [--queries N]
 *   node dist/bench/retrieval/run.js pglite --beir OUT_DIR --only <basename of OUT_DIR>
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { packageRoot } from '../../src/util/package-root.js'

interface Section {
  id: string
  heading: string
  text: string
}

function markdownFiles(dir: string, seen: Set<string>, out: string[]): void {
  let entries: string[]
  try {
    entries = readdirSync(dir).sort()
  } catch {
    return
  }
  for (const name of entries) {
    const path = join(dir, name)
    let real: string
    try {
      real = realpathSync(path)
    } catch {
      continue
    }
    if (seen.has(real)) continue
    seen.add(real)
    const stat = statSync(real)
    if (stat.isDirectory()) markdownFiles(path, seen, out)
    else if (/\.md$/i.test(name) && stat.size > 1000) out.push(path)
  }
}

/** Sections of one file: text under each ATX heading outside code fences, heading line removed. */
function sections(file: string, root: string): Section[] {
  const lines = readFileSync(file, 'utf8').split('\n')
  const out: Section[] = []
  let heading: string | null = null
  let body: string[] = []
  let fenced = false
  const flush = (): void => {
    const text = body.join('\n').trim()
    if (heading !== null && text.length >= 200) out.push({ id: `${relative(root, file)}#${out.length + 1}`, heading, text })
  }
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const match = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (match) {
      flush()
      heading = match[1]!
      body = []
    } else {
      body.push(line)
    }
  }
  flush()
  return out
}

const isQuery = (heading: string): boolean => /^[A-Za-z][A-Za-z' -]+$/.test(heading) && heading.trim().split(/\s+/).length >= 3

function main(): void {
  const args = process.argv.slice(2)
  const outDir = args[0]
  if (!outDir) throw new Error('usage: heading-set.js OUT_DIR [--docs N] [--queries N]')
  const option = (name: string, fallback: number): number => {
    const at = args.indexOf(name)
    return at >= 0 ? Number(args[at + 1]) : fallback
  }
  const root = join(packageRoot(), 'node_modules')
  const files: string[] = []
  markdownFiles(root, new Set(), files)
  const byContent = new Set<string>()
  const docs: Section[] = []
  for (const file of files) {
    for (const section of sections(file, root)) {
      const hash = createHash('sha256').update(section.text).digest('hex')
      if (byContent.has(hash)) continue
      byContent.add(hash)
      docs.push(section)
    }
  }
  const kept = docs.slice(0, option('--docs', 5000))
  const headingCount = new Map<string, number>()
  for (const d of kept) headingCount.set(d.heading.toLowerCase(), (headingCount.get(d.heading.toLowerCase()) ?? 0) + 1)
  const candidates = kept.filter((d) => isQuery(d.heading) && headingCount.get(d.heading.toLowerCase()) === 1)
  const wanted = option('--queries', 200)
  const step = Math.max(1, candidates.length / wanted)
  const queries = Array.from({ length: Math.min(wanted, candidates.length) }, (_, i) => candidates[Math.floor(i * step)]!)
  mkdirSync(join(outDir, 'qrels'), { recursive: true })
  writeFileSync(join(outDir, 'corpus.jsonl'), kept.map((d) => JSON.stringify({ _id: d.id, title: '', text: d.text })).join('\n') + '\n')
  writeFileSync(join(outDir, 'queries.jsonl'), queries.map((d, i) => JSON.stringify({ _id: `h${i + 1}`, text: d.heading })).join('\n') + '\n')
  writeFileSync(join(outDir, 'qrels', 'test.tsv'), ['query-id\tcorpus-id\tscore', ...queries.map((d, i) => `h${i + 1}\t${d.id}\t1`)].join('\n') + '\n')
  process.stdout.write(`${files.length} files, ${docs.length} sections, ${kept.length} documents, ${queries.length} queries of ${candidates.length} candidates\n`)
}

main()
