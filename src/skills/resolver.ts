import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { readFrontmatterDoc } from '../util/index.js'

export const RESOLVER_FILE = 'RESOLVER.md'
/** Version notes for agents after an upgrade; they are read by version, never routed by trigger. */
export const UNROUTED_DIRS = ['migrations'] as const

export interface ResolverRow {
  trigger: string
  /** Path relative to the skills folder, as written in the table. */
  skill: string
  line: number
}

export interface Skill {
  /** Path relative to the skills folder, with forward slashes. */
  file: string
  name: string | null
  description: string | null
  triggers: string[]
  problems: string[]
}

const normalize = (trigger: string): string => trigger.trim().toLowerCase().replace(/\s+/g, ' ')
export { normalize as normalizeTrigger }

/** Rows of the markdown table in RESOLVER.md: `| trigger | skill file |`, header and rule skipped. */
export function parseResolver(text: string): ResolverRow[] {
  const rows: ResolverRow[] = []
  let headerSeen = false
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (!line.startsWith('|')) return
    const cells = line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim())
    if (cells.every((c) => /^:?-{3,}:?$/.test(c))) return
    if (!headerSeen) {
      headerSeen = true
      return
    }
    const [trigger = '', skill = ''] = cells
    rows.push({ trigger, skill: skill.replace(/^`(.*)`$/, '$1').trim(), line: index + 1 })
  })
  return rows
}

function listSkillFiles(root: string, dir = root): string[] {
  const files: string[] = []
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry)
    const rel = relative(root, path).split(sep).join('/')
    if (statSync(path).isDirectory()) {
      if (dir === root && (UNROUTED_DIRS as readonly string[]).includes(entry)) continue
      files.push(...listSkillFiles(root, path))
    } else if (entry.endsWith('.md') && rel !== RESOLVER_FILE && entry.toLowerCase() !== 'readme.md') {
      files.push(rel)
    }
  }
  return files
}

function readSkill(root: string, file: string): Skill {
  const skill: Skill = { file, name: null, description: null, triggers: [], problems: [] }
  let data: Record<string, unknown> | null
  try {
    data = readFrontmatterDoc(readFileSync(join(root, file), 'utf8')).data
  } catch (err) {
    skill.problems.push(`front matter does not parse (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`)
    return skill
  }
  if (data === null) {
    skill.problems.push('no front matter (name, description, triggers)')
    return skill
  }
  if (typeof data.name === 'string' && data.name.trim() !== '') skill.name = data.name.trim()
  else skill.problems.push('name is missing')
  if (typeof data.description === 'string' && data.description.trim() !== '') skill.description = data.description.trim()
  else skill.problems.push('description is missing')
  if (Array.isArray(data.triggers) && data.triggers.length > 0 && data.triggers.every((x) => typeof x === 'string' && x.trim() !== '')) {
    skill.triggers = data.triggers as string[]
  } else skill.problems.push('triggers must be a non-empty list of phrases')
  return skill
}

export function readSkills(root: string): Skill[] {
  return existsSync(root) ? listSkillFiles(root).map((file) => readSkill(root, file)) : []
}
