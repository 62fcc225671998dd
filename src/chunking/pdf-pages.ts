import type { ChunkDraft } from './types.js'

/**
 * A PDF page's chunks say which pages they hold (`symbol_type` `pdf_page`, `symbol_name` `p. 3`
 * or `p. 3–4`), found from the `## Page N` headings the converter writes; search shows it. Done
 * when chunking any page made from a PDF (`source_format: pdf`), so an edit, an export brought
 * back or a synced copy keeps the page numbers, not only the first conversion.
 */
export function labelPdfPages(drafts: ChunkDraft[], compiledTruth: string): void {
  const starts = [...compiledTruth.matchAll(/^## Page (\d+)$/gm)].map((m) => ({ at: m.index ?? 0, page: Number(m[1]) }))
  if (starts.length === 0) return
  const pageAt = (offset: number): number => starts.filter((s) => s.at <= offset).pop()?.page ?? starts[0]!.page
  let from = 0
  for (const draft of drafts) {
    if (draft.source !== 'compiled_truth' || draft.symbolType !== null) continue
    const at = compiledTruth.indexOf(draft.text, from)
    if (at < 0) continue
    from = at + 1
    const first = pageAt(at)
    const last = pageAt(at + draft.text.length - 1)
    draft.symbolType = 'pdf_page'
    draft.symbolName = first === last ? `p. ${first}` : `p. ${first}–${last}`
  }
}
