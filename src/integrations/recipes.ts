import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { isBrainError } from '../errors/index.js'
import { readFrontmatterDoc } from '../util/index.js'

export const CATEGORIES = ['infrastructure', 'senses', 'reflexes'] as const
export type Category = (typeof CATEGORIES)[number]

export interface Recipe {
  id: string
  name: string
  category: Category
  description: string
  /** Requirements such as `env:OPENAI_API_KEY`, `bin:git`, `engine:postgres`, `file:~/.config/x`. */
  requires: string[]
  /** Optional command (argv, no shell) that `brain integrations test` runs. */
  check: string[] | null
  /** A heartbeat older than this makes the integration stale. */
  heartbeatMaxAge: string | null
  file: string
  body: string
}

/** A recipe file that could not be read as a recipe; `brain integrations doctor` reports it. */
export interface RecipeProblem {
  file: string
  code: 'invalid_recipe' | 'duplicate_recipe_id'
  message: string
}

export interface RecipeCatalog {
  recipes: Recipe[]
  problems: RecipeProblem[]
}

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/

function stringList(value: unknown): string[] | null {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null
  return value as string[]
}

function problemsOf(data: Record<string, unknown>): string[] {
  const problems: string[] = []
  if (typeof data.id !== 'string' || !ID_PATTERN.test(data.id)) problems.push('id must be lowercase letters, digits and dashes')
  for (const key of ['name', 'description'] as const) {
    if (typeof data[key] !== 'string' || (data[key] as string).trim() === '') problems.push(`${key} is missing`)
  }
  if (!(CATEGORIES as readonly unknown[]).includes(data.category)) problems.push(`category must be one of ${CATEGORIES.join(', ')}`)
  if (stringList(data.requires) === null) problems.push('requires must be a list of strings')
  if (data.check !== undefined && (stringList(data.check) === null || (data.check as string[]).length === 0)) problems.push('check must be a non-empty list of strings (argv)')
  if (data.heartbeat_max_age !== undefined && typeof data.heartbeat_max_age !== 'string') problems.push('heartbeat_max_age must be a duration such as 2h')
  return problems
}

function readRecipe(file: string): Recipe | RecipeProblem | null {
  let data: Record<string, unknown> | null
  let body: string
  try {
    ;({ data, body } = readFrontmatterDoc(readFileSync(file, 'utf8')))
  } catch (err) {
    return { file, code: 'invalid_recipe', message: `front matter does not parse: ${isBrainError(err) ? err.message : err instanceof Error ? err.message : String(err)}` }
  }
  // Markdown without an `id` in its front matter is documentation beside the recipes, not a recipe.
  if (data === null || data.id === undefined) return null
  const problems = problemsOf(data)
  if (problems.length > 0) return { file, code: 'invalid_recipe', message: problems.join('; ') }
  return {
    id: data.id as string,
    name: (data.name as string).trim(),
    category: data.category as Category,
    description: (data.description as string).trim(),
    requires: stringList(data.requires) ?? [],
    check: data.check === undefined ? null : (data.check as string[]),
    heartbeatMaxAge: (data.heartbeat_max_age as string | undefined) ?? null,
    file,
    body: body.trim(),
  }
}

/** Reads every `*.md` recipe in the folders, in order; a later folder's recipe replaces an earlier one of the same id. */
export function loadRecipes(dirs: readonly string[]): RecipeCatalog {
  const byId = new Map<string, Recipe>()
  const problems: RecipeProblem[] = []
  for (const dir of dirs) {
    if (!existsSync(dir)) continue
    const seenHere = new Map<string, string>()
    for (const name of readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()) {
      const file = join(dir, name)
      const read = readRecipe(file)
      if (read === null) continue
      if ('code' in read) {
        problems.push(read)
        continue
      }
      const earlier = seenHere.get(read.id)
      if (earlier !== undefined) {
        problems.push({ file, code: 'duplicate_recipe_id', message: `id ${read.id} is also declared by ${basename(earlier)}` })
        continue
      }
      seenHere.set(read.id, file)
      byId.set(read.id, read)
    }
  }
  const recipes = [...byId.values()].sort((a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) || a.id.localeCompare(b.id))
  return { recipes, problems }
}
