/**
 * The Logseq journal formats of the graphs an import's files belong to: each graph's
 * `logseq/config.edn`, read once per import from beside its `journals/` folder.
 */
import { readFileSync, statSync } from 'node:fs'
import { journalFormatsFromConfig, journalGraphFolder, type JournalFormats } from '../../convert/index.js'
import type { WalkedFile } from '../sources/index.js'

/** A config larger than this is not Logseq's (its own is a few kilobytes). */
const MAX_CONFIG_BYTES = 1024 * 1024

/** Returns, for each file, the journal formats of its graph when it is a journal day; undefined otherwise. */
export function journalFormatReader(): (file: WalkedFile) => JournalFormats | undefined {
  const byGraph = new Map<string, JournalFormats | undefined>()
  return (file) => {
    if (file.kind !== 'markdown') return undefined
    const graph = journalGraphFolder(file.relativePath)
    if (graph === null) return undefined
    if (!byGraph.has(graph)) {
      const root = file.absolutePath.slice(0, file.absolutePath.length - file.relativePath.length)
      byGraph.set(graph, readConfig(`${root}${graph}logseq/config.edn`))
    }
    return byGraph.get(graph)
  }
}

function readConfig(path: string): JournalFormats | undefined {
  try {
    if (statSync(path).size > MAX_CONFIG_BYTES) return undefined
    return journalFormatsFromConfig(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}
