import { createHash } from 'node:crypto'
import type { PageDraft } from './types.js'

/** sha256 of the original file, stored as `source_hash` so an unchanged file re-imports as a no-op. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * A draft as page text for the import pipeline: YAML front matter then the body. Values are
 * written as JSON, which YAML reads as flow scalars, so titles with colons or quotes stay intact.
 */
export function renderDraft(draft: PageDraft, sourceHash: string): string {
  const fields: Record<string, unknown> = { title: draft.title, ...draft.frontmatter, source_hash: sourceHash }
  const lines = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
  return `---\n${lines.join('\n')}\n---\n\n${draft.body}`
}
