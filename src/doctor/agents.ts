import type { BrainEnv } from '../config/index.js'
import { check, type DoctorCheck } from './types.js'

export interface AgentsCheckOptions {
  env: BrainEnv
  /** The directory whose project-scope installs are looked at (the caller's working directory). */
  cwd: string
}

/**
 * One check per agent brain is installed in (user scope, and the project scope of the working
 * directory): whether the command its entry starts runs, and what its client still needs.
 */
export async function checkAgents(options: AgentsCheckOptions): Promise<DoctorCheck[]> {
  const [{ installedAgents, checkCommand }, { agentDirs }] = await Promise.all([import('../agents/index.js'), import('../config/index.js')])
  const found = installedAgents(options.cwd, agentDirs(options.env))
  if (found.length === 0) return [check('agents', 'ok', 'brain is installed in no coding agent here (`brain agents install <agent>`)')]
  // Agents usually share one command: each distinct one is started once.
  const runs = new Map<string, ReturnType<typeof checkCommand>>()
  return Promise.all(
    found.map(async (install) => {
      const name = `agent ${install.agent} (${install.scope})`
      if (install.command === null) return check(name, 'warn', `${install.file}: brain cannot tell what the entry starts; run \`brain agents install ${install.agent}\` again`)
      const key = JSON.stringify([install.command, install.env])
      if (!runs.has(key)) runs.set(key, checkCommand(install.command, { ...options.env, ...install.env }, 15_000))
      const run = await runs.get(key)!
      const again = `brain agents install ${install.agent}${install.scope === 'project' ? ' --scope project' : ''}`
      if (!run.ok) return check(name, 'fail', `its command does not start (${run.detail}); run \`${again}\` with the brain you use`)
      if (install.pending.length > 0) return check(name, 'warn', `command runs (${run.detail}); still to do: ${install.pending.join(' ')}`)
      return check(name, 'ok', `command runs (${run.detail}); ${install.file}`)
    }),
  )
}
