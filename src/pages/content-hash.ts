import { createHash } from 'node:crypto'

interface HashInput {
  title: string
  type: string
  compiledTruth: string
  timeline: string
  frontmatter: Record<string, unknown>
  pageKind: 'markdown' | 'code'
  language: string | null
  chunkerVersion: number
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * sha256 over title, type and content; code pages add language and the chunker version so a
 * chunker change forces clean re-chunking. "Content" is the body plus the front matter (which
 * carries the tags): a re-put that only changes tags must not be skipped.
 */
export function computePageContentHash(input: HashInput): string {
  // Provenance stamps change on every write and say nothing about the content; title and type
  // are hashed as fields, so a file that spells them out in its front matter hashes the same.
  const { ingested_via: _via, ingested_at: _at, captured_at: _captured, title: _title, type: _type, ...frontmatter } = input.frontmatter
  const parts: unknown[] = [input.title, input.type, input.compiledTruth, input.timeline, frontmatter]
  if (input.pageKind === 'code') parts.push(input.language, input.chunkerVersion)
  return createHash('sha256').update(canonicalJson(parts)).digest('hex')
}
