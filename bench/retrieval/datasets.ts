/**
 * Labelled sets for bench/retrieval: the project's own corpus (corpus.ts, queries.ts) and any
 * folder in BEIR format (corpus.jsonl with _id/title/text, queries.jsonl with _id/text,
 * qrels/test.tsv with query-id, corpus-id, score). Every set is split into two halves by query
 * order (even positions: tune, odd: held-out) so tuning never sees the held-out half.
 */
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { buildCorpus } from './corpus.js'
import { QUERIES } from './queries.js'

export interface DatasetDoc {
  id: string
  slug: string
  kind: 'markdown' | 'code'
  content: string
  path?: string
}

export interface DatasetQuery {
  id: string
  text: string
  /** Graded relevance by document id; grades ≤ 0 are not relevant. */
  grades: Map<string, number>
  half: 'tune' | 'held-out'
}

export interface Dataset {
  name: string
  docs: DatasetDoc[]
  queries: DatasetQuery[]
}

const halfOf = (index: number): DatasetQuery['half'] => (index % 2 === 0 ? 'tune' : 'held-out')

/** The project's own labelled corpus: document ids are slugs, every relevant page has grade 1. */
export function builtinDataset(): Dataset {
  const docs = buildCorpus().map((p) => ({ id: p.slug, slug: p.slug, kind: p.kind, content: p.content, ...(p.path ? { path: p.path } : {}) }))
  const queries = QUERIES.map((q, i) => ({ id: `q${i + 1}`, text: q.query, grades: new Map(q.relevant.map((slug) => [slug, 1])), half: halfOf(i) }))
  return { name: 'brain', docs, queries }
}

function jsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T)
}

/** A slug for a BEIR id: unsafe characters become '-', and a collision gets the line number. */
function slugFor(id: string, index: number, taken: Set<string>): string {
  let slug = `doc/${
    id
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 200) || 'x'
  }`
  if (taken.has(slug)) slug = `${slug}-${index}`
  taken.add(slug)
  return slug
}

export function loadBeirDataset(dir: string): Dataset {
  const taken = new Set<string>()
  const docs = jsonLines<{ _id: string; title?: string; text: string }>(join(dir, 'corpus.jsonl')).map((d, i) => ({
    id: String(d._id),
    slug: slugFor(String(d._id), i, taken),
    kind: 'markdown' as const,
    content: d.title ? `# ${d.title}\n\n${d.text}` : d.text,
  }))
  const grades = new Map<string, Map<string, number>>()
  readFileSync(join(dir, 'qrels', 'test.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .forEach((line) => {
      const [queryId, docId, score] = line.split('\t')
      if (!queryId || !docId) return
      const forQuery = grades.get(queryId) ?? new Map<string, number>()
      forQuery.set(docId, Number(score ?? 1))
      grades.set(queryId, forQuery)
    })
  const queries = jsonLines<{ _id: string; text: string }>(join(dir, 'queries.jsonl'))
    .filter((q) => [...(grades.get(String(q._id))?.values() ?? [])].some((g) => g > 0))
    .map((q, i) => ({ id: String(q._id), text: q.text, grades: grades.get(String(q._id))!, half: halfOf(i) }))
  return { name: basename(dir.replace(/\/+$/, '')), docs, queries }
}
