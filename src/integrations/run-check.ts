import { spawn } from 'node:child_process'
import type { BrainEnv } from '../config/index.js'
import { appendHeartbeat, type Heartbeat } from './heartbeat.js'
import type { Recipe } from './recipes.js'
import { checkRequirement, type RequirementContext, type RequirementResult } from './requirements.js'

export interface IntegrationTestResult {
  id: string
  ok: boolean
  requirements: RequirementResult[]
  /** The recipe's `check` command, when it has one and the requirements are met. */
  check: { argv: string[]; exitCode: number | null; output: string } | null
  heartbeat: Heartbeat
}

const CHECK_TIMEOUT_MS = 15_000

function runArgv(argv: string[], env: BrainEnv): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve) => {
    const cleanEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
    const child = spawn(argv[0]!, argv.slice(1), { env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHECK_TIMEOUT_MS })
    let output = ''
    const keep = (d: Buffer): void => {
      output = (output + d.toString('utf8')).slice(-2000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.once('error', (err: NodeJS.ErrnoException) => resolve({ exitCode: null, output: `could not start ${argv[0]} (${err.code ?? err.message})` }))
    child.once('close', (code) => resolve({ exitCode: code, output: output.trim() }))
  })
}

/**
 * Tests one integration now: its requirements, then its `check` command if it declares one.
 * The outcome is appended as a heartbeat, so `status` shows when it was last known good.
 */
export async function testIntegration(recipe: Recipe, ctx: RequirementContext, now: () => Date = () => new Date()): Promise<IntegrationTestResult> {
  const requirements = recipe.requires.map((r) => checkRequirement(r, ctx))
  const unmet = requirements.filter((r) => !r.ok)
  let check: IntegrationTestResult['check'] = null
  if (unmet.length === 0 && recipe.check) check = { argv: recipe.check, ...(await runArgv(recipe.check, ctx.env)) }
  const ok = unmet.length === 0 && (check === null || check.exitCode === 0)
  const message =
    unmet.length > 0
      ? `requirements not met: ${unmet.map((r) => r.detail).join('; ')}`
      : check && check.exitCode !== 0
        ? `check ${check.argv.join(' ')} exited ${check.exitCode ?? 'without starting'}: ${check.output.split('\n').slice(-1)[0] ?? ''}`.trim()
        : check
          ? `check ${check.argv.join(' ')} passed`
          : 'requirements met'
  const heartbeat: Heartbeat = { ts: now().toISOString(), status: ok ? 'ok' : 'fail', message, via: 'brain integrations test' }
  appendHeartbeat(ctx.home, recipe.id, heartbeat)
  return { id: recipe.id, ok, requirements, check, heartbeat }
}
