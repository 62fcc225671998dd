import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * An export keeps every slug, but a file name cannot always carry one: importing `Notes/My
 * Note.md` gives the slug `notes/my-note`. The export lists the files whose slug the path alone
 * would not give back, and importing the folder reads the list, so that it gives the same pages.
 */
export const EXPORT_MANIFEST = '.brain-export.json'

export interface ExportManifest {
  format: 'brain-export'
  version: 1
  /** File path relative to the export folder (with `/`) → the slug it holds. */
  slugs: Record<string, string>
}

/** The slugs an export recorded, or an empty map for a folder that is not an export. */
export async function readExportManifest(root: string): Promise<Map<string, string>> {
  let text: string
  try {
    text = await readFile(join(root, EXPORT_MANIFEST), 'utf8')
  } catch {
    return new Map()
  }
  try {
    const parsed = JSON.parse(text) as Partial<ExportManifest>
    if (parsed.format !== 'brain-export' || typeof parsed.slugs !== 'object' || parsed.slugs === null) return new Map()
    return new Map(Object.entries(parsed.slugs).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  } catch {
    return new Map()
  }
}
