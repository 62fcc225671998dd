import type { Database } from '../../db/index.js'
import { countTokens, EMBEDDING_USD_PER_1K_TOKENS, estimateEmbeddingCostUsd } from '../../embedding/index.js'
import { createFileFilter, MAX_FILE_BYTES, readTextFile, listSources, walkFiles, type FileFilter, type SourceRecord } from '../sources/index.js'

export interface SourcePreview {
  sourceId: string
  files: number
  tokens: number
}

export interface CostPreview {
  files: number
  sources: number
  tokens: number
  estimatedUsd: number
  usdPer1kTokens: number
  perSource: SourcePreview[]
}

/** Sums per-source counts into the preview the gate shows. */
export function summarizePreview(perSource: readonly SourcePreview[]): CostPreview {
  const files = perSource.reduce((n, s) => n + s.files, 0)
  const tokens = perSource.reduce((n, s) => n + s.tokens, 0)
  return { files, sources: perSource.length, tokens, estimatedUsd: estimateEmbeddingCostUsd(tokens), usdPer1kTokens: EMBEDDING_USD_PER_1K_TOKENS, perSource: [...perSource] }
}

function formatUsd(usd: number): string {
  if (usd >= 1) return `$${usd.toFixed(2)}`
  return usd > 0 && usd < 0.0001 ? 'under $0.0001' : `$${usd.toFixed(4)}`
}

export function formatPreview(preview: CostPreview): string {
  const n = (value: number): string => value.toLocaleString('en-US')
  const plural = (value: number, word: string): string => `${n(value)} ${word}${value === 1 ? '' : 's'}`
  return (
    `Sync preview: ${plural(preview.files, 'file')} in ${plural(preview.sources, 'source')}, ${plural(preview.tokens, 'token')}, ` +
    `estimated ${formatUsd(preview.estimatedUsd)} to embed (at $${preview.usdPer1kTokens} per 1,000 tokens; an upper bound, since unchanged files are not embedded again).`
  )
}

/** The source's own filter, narrowed by the preview's rules: no hidden directories, no `ops/`. */
function previewFilter(source: SourceRecord): FileFilter {
  const filter = createFileFilter(source.config)
  return {
    enterDirectory: (dir) => {
      const name = dir.slice(dir.lastIndexOf('/') + 1)
      return !name.startsWith('.') && name !== 'ops' && filter.enterDirectory(dir)
    },
    kindOf: (path) => filter.kindOf(path),
  }
}

async function previewSource(source: SourceRecord, localPath: string, tokensOf: (text: string) => number): Promise<SourcePreview> {
  const files = (await walkFiles(localPath, previewFilter(source))).filter((f) => f.size <= MAX_FILE_BYTES)
  let counted = 0
  let tokens = 0
  for (const file of files) {
    const text = await readTextFile(file.absolutePath).catch(() => null)
    if (text === null) continue
    counted += 1
    tokens += tokensOf(text)
  }
  return { sourceId: source.id, files: counted, tokens }
}

/**
 * The cost preview of `sync --all`: walks the working tree of every source it would visit
 * (hidden directories, node_modules, ops/ and files over 5 MB skipped) and counts tokens with
 * the embedding model's tokenizer. Sources whose directory is missing count as empty here; the
 * sync itself reports them.
 */
export async function previewSyncAll(db: Database, options: { tokensOf?: (text: string) => number } = {}): Promise<CostPreview> {
  const tokensOf = options.tokensOf ?? countTokens
  const perSource: SourcePreview[] = []
  for (const source of await listSources(db)) {
    if (!source.localPath || !source.config.syncEnabled) continue
    const preview = await previewSource(source, source.localPath, tokensOf).catch(() => ({ sourceId: source.id, files: 0, tokens: 0 }))
    perSource.push(preview)
  }
  return summarizePreview(perSource)
}
