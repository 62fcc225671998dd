/**
 * What each agent file held before brain first wrote to it, kept in the brain home: an uninstall
 * that leaves a JSON file's value as it was gives the file back byte for byte (layout, indent and
 * all), and a file brain created is removed again, even when brain added scaffolding to it.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** Path → its text before brain's first write (null: it did not exist). */
export type Originals = Record<string, string | null>

function originalsPath(brainHome: string): string {
  return join(brainHome, 'agents', 'originals.json')
}

export async function readOriginals(brainHome: string): Promise<Originals> {
  try {
    const value: unknown = JSON.parse(await readFile(originalsPath(brainHome), 'utf8'))
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {}
    const out: Originals = {}
    for (const [path, text] of Object.entries(value as Record<string, unknown>)) if (typeof text === 'string' || text === null) out[path] = text
    return out
  } catch {
    // No record (or an unreadable one): uninstall then edits values only, as without records.
    return {}
  }
}

export async function writeOriginals(brainHome: string, originals: Originals): Promise<void> {
  const path = originalsPath(brainHome)
  await mkdir(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.tmp`
  await writeFile(temp, `${JSON.stringify(originals, null, 2)}\n`)
  await rename(temp, path)
}
