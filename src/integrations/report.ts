import { parseDurationMs } from '../config/index.js'
import { latestHeartbeat, readHeartbeats, type Heartbeat } from './heartbeat.js'
import type { Recipe, RecipeCatalog } from './recipes.js'
import { checkRequirement, type RequirementContext, type RequirementResult } from './requirements.js'
import { overallStatus, type CheckStatus, type DoctorCheck, type DoctorReport } from '../doctor/types.js'

/** Without `heartbeat_max_age` in the recipe, a heartbeat older than a day is stale. */
export const DEFAULT_HEARTBEAT_MAX_AGE_MS = 24 * 3_600_000

export type IntegrationState = 'missing_requirements' | 'no_heartbeat' | 'healthy' | 'degraded' | 'failing' | 'stale'

export interface IntegrationStatus {
  id: string
  name: string
  category: Recipe['category']
  state: IntegrationState
  requirements: RequirementResult[]
  lastHeartbeat: Heartbeat | null
  /** Age of the latest heartbeat in whole seconds. */
  heartbeatAgeSeconds: number | null
  badHeartbeatLines: number[]
}

function maxAgeMs(recipe: Recipe): number {
  try {
    return parseDurationMs('heartbeat_max_age', recipe.heartbeatMaxAge ?? undefined, DEFAULT_HEARTBEAT_MAX_AGE_MS) || DEFAULT_HEARTBEAT_MAX_AGE_MS
  } catch {
    return DEFAULT_HEARTBEAT_MAX_AGE_MS
  }
}

export function integrationStatus(recipe: Recipe, ctx: RequirementContext, now: Date = new Date()): IntegrationStatus {
  const requirements = recipe.requires.map((r) => checkRequirement(r, ctx))
  const log = readHeartbeats(ctx.home, recipe.id)
  const last = latestHeartbeat(log.beats)
  const ageMs = last ? Math.max(0, now.getTime() - Date.parse(last.ts)) : null
  let state: IntegrationState
  if (requirements.some((r) => !r.ok)) state = 'missing_requirements'
  else if (!last) state = 'no_heartbeat'
  else if (last.status === 'fail') state = 'failing'
  else if (ageMs! > maxAgeMs(recipe)) state = 'stale'
  else state = last.status === 'warn' ? 'degraded' : 'healthy'
  return {
    id: recipe.id,
    name: recipe.name,
    category: recipe.category,
    state,
    requirements,
    lastHeartbeat: last,
    heartbeatAgeSeconds: ageMs === null ? null : Math.floor(ageMs / 1000),
    badHeartbeatLines: log.badLines,
  }
}

export interface IntegrationStats {
  id: string
  category: Recipe['category']
  heartbeats: number
  ok: number
  warn: number
  fail: number
  firstAt: string | null
  lastAt: string | null
}

export function integrationStats(recipe: Recipe, home: string): IntegrationStats {
  const { beats } = readHeartbeats(home, recipe.id)
  const times = beats.map((b) => b.ts).sort((a, b) => Date.parse(a) - Date.parse(b))
  return {
    id: recipe.id,
    category: recipe.category,
    heartbeats: beats.length,
    ok: beats.filter((b) => b.status === 'ok').length,
    warn: beats.filter((b) => b.status === 'warn').length,
    fail: beats.filter((b) => b.status === 'fail').length,
    firstAt: times[0] ?? null,
    lastAt: times.at(-1) ?? null,
  }
}

export type { CheckStatus, DoctorCheck, DoctorReport }

/** Recipe files that do not parse fail; an integration that is not set up or not beating only warns. */
export function integrationsDoctor(catalog: RecipeCatalog, ctx: RequirementContext, now: Date = new Date()): DoctorReport {
  const checks: DoctorCheck[] = catalog.problems.map((p) => ({ name: `recipe:${p.file}`, status: 'fail', message: `${p.code}: ${p.message}` }))
  for (const recipe of catalog.recipes) {
    const status = integrationStatus(recipe, ctx, now)
    const unmet = status.requirements.filter((r) => !r.ok)
    let check: DoctorCheck
    if (status.badHeartbeatLines.length > 0) {
      check = { name: recipe.id, status: 'fail', message: `heartbeat.jsonl has unreadable lines: ${status.badHeartbeatLines.join(', ')}` }
    } else if (unmet.length > 0) {
      check = { name: recipe.id, status: 'warn', message: `not set up: ${unmet.map((r) => r.detail).join('; ')}` }
    } else if (status.state === 'failing') {
      check = { name: recipe.id, status: 'fail', message: `last heartbeat failed: ${status.lastHeartbeat?.message ?? 'no message'}` }
    } else if (status.state === 'healthy') {
      check = { name: recipe.id, status: 'ok', message: `healthy, last heartbeat ${status.heartbeatAgeSeconds}s ago` }
    } else {
      check = { name: recipe.id, status: 'warn', message: status.state.replace('_', ' ') }
    }
    checks.push(check)
  }
  return { status: overallStatus(checks), checks }
}
