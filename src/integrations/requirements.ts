import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import type { BrainEnv } from '../config/index.js'
import { isEngineKind } from '../db/index.js'

export interface RequirementContext {
  env: BrainEnv
  home: string
  /** The configured engine, read from configuration only (never by connecting). */
  engine: 'pglite' | 'postgres'
}

export interface RequirementResult {
  requirement: string
  ok: boolean
  detail: string
}

function onPath(program: string, env: BrainEnv): string | null {
  const candidates = program.includes('/')
    ? [program]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program))
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK)
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // Not here; try the next PATH entry.
    }
  }
  return null
}

function expandPath(raw: string, ctx: RequirementContext): string {
  const userHome = ctx.env.HOME ?? ''
  return raw.replace(/^~(?=\/|$)/, userHome).replace(/^\$BRAIN_HOME(?=\/|$)/, ctx.home)
}

/** Checks one `kind:value` requirement of a recipe. */
export function checkRequirement(requirement: string, ctx: RequirementContext): RequirementResult {
  const colon = requirement.indexOf(':')
  const kind = colon < 0 ? requirement : requirement.slice(0, colon)
  const value = colon < 0 ? '' : requirement.slice(colon + 1).trim()
  const result = (ok: boolean, detail: string): RequirementResult => ({ requirement, ok, detail })
  if (value === '') return result(false, `malformed requirement (expected kind:value)`)
  switch (kind) {
    case 'env':
      // Never echo the value: it is usually a secret.
      return (ctx.env[value] ?? '').trim() !== '' ? result(true, `${value} is set`) : result(false, `${value} is not set`)
    case 'bin': {
      const found = onPath(value, ctx.env)
      return found ? result(true, found) : result(false, `${value} is not on PATH`)
    }
    case 'engine':
      if (!isEngineKind(value)) return result(false, `unknown engine ${value} (pglite or postgres)`)
      return ctx.engine === value ? result(true, `the brain uses ${value}`) : result(false, `the brain uses ${ctx.engine}, not ${value}`)
    case 'file': {
      const path = expandPath(value, ctx)
      if (!isAbsolute(path)) return result(false, `${value} is not an absolute path (use ~/ or $BRAIN_HOME/)`)
      return existsSync(path) ? result(true, path) : result(false, `${path} does not exist`)
    }
    default:
      return result(false, `unknown requirement kind "${kind}" (env, bin, engine or file)`)
  }
}
