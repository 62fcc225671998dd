import { Command, Option } from 'clipanion'
import type { FileChange } from '../../agents/index.js'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

function describe(changes: readonly FileChange[], verb: string): string {
  const changed = changes.filter((c) => c.status !== 'unchanged')
  if (changed.length === 0) return `nothing to ${verb}: every file is already as brain would leave it`
  return changes.map((c) => `${c.status.padEnd(9)} ${c.path} (${c.holds})`).join('\n')
}

/**
 * `brain agents install <agent>`: not an operation, since it edits this machine's agent
 * configuration rather than the brain. Runs in the calling process, never in the service.
 */
export class AgentsInstallCommand extends BrainCommand {
  static override paths = [['agents', 'install']]
  static override usage = Command.Usage({
    description: 'Plug brain into a coding agent: its MCP server, its hooks and a rules block (claude-code, codex, cursor, gemini-cli, opencode)',
    details: [
      "Merges brain's entries into the agent's own files and leaves every other entry as it was; a second run changes nothing. `--uninstall` removes brain's entries only.",
      'User scope writes the files in your home directory; project scope those of the project (`--project`, default the current directory). `--dry-run` prints the diff instead of writing.',
      'Claude Code gets hooks that recall what each prompt needs, orient each session and capture the transcript when a session stops; Gemini CLI gets the recall and orientation hooks.',
    ].join('\n\n'),
    examples: [
      ['Install into Claude Code for every project', '$0 agents install claude-code'],
      ['Install into one project for Codex, showing the diff first', '$0 agents install codex --scope project --dry-run'],
      ['Remove brain from Cursor', '$0 agents install cursor --uninstall'],
    ],
  })

  agent = Option.String({ required: true, name: 'agent' })
  scope = Option.String('--scope', 'user', { description: 'user (your home directory, the default) or project' })
  project = Option.String('--project', { description: 'The project directory for --scope project (default: the current directory)' })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the diff; write nothing' })
  uninstall = Option.Boolean('--uninstall', false, { description: "Remove brain's entries" })
  command = Option.String('--command', 'brain', { description: 'How the agent starts brain (default: brain, found on PATH)' })

  protected async run(): Promise<number> {
    const { AGENTS, isAgentName, planInstall, applyInstall, planDiff } = await import('../../agents/index.js')
    const { agentDirs } = await import('../../config/home.js')
    if (!isAgentName(this.agent)) throw new UsageError('unknown_agent', `Unknown agent "${this.agent}".`, { hint: `One of: ${AGENTS.join(', ')}.` })
    if (this.scope !== 'user' && this.scope !== 'project') throw new UsageError('invalid_scope', `--scope is user or project, not "${this.scope}".`)
    if (this.project !== undefined && this.scope !== 'project') throw new UsageError('project_needs_scope', '--project goes with --scope project.')
    const changes = await planInstall({
      agent: this.agent,
      scope: this.scope,
      project: this.resolvePath(this.project ?? '.'),
      dirs: agentDirs(this.context.env),
      command: this.command,
      uninstall: this.uninstall,
    })
    const diff = this.dryRun ? await planDiff(changes) : null
    if (!this.dryRun) await applyInstall(changes)
    const result = {
      agent: this.agent,
      scope: this.scope,
      uninstall: this.uninstall,
      dryRun: this.dryRun,
      files: changes.map((c) => ({ path: c.path, holds: c.holds, status: c.status })),
      ...(diff === null ? {} : { diff }),
    }
    this.print(result, () => (diff !== null ? diff || 'no changes\n' : describe(changes, this.uninstall ? 'remove' : 'install')))
    return 0
  }
}

/** `brain hook <harness> <event>` for `--help`; the hook itself runs on the lean path in entry.ts. */
export class HookCommand extends BrainCommand {
  static override paths = [['hook']]
  static override usage = Command.Usage({
    description: "Answer a coding agent's hook (run by the agent, installed by `brain agents install`)",
    details: [
      "Reads the hook JSON on stdin and prints the agent's JSON answer, or nothing. Events: claude-code session-start, user-prompt-submit, pre-compact, stop; gemini-cli session-start, user-prompt-submit.",
      "A hook never blocks the agent: it always exits 0, and logs what went wrong to the brain's logs/hooks.log. BRAIN_HOOK_TIMEOUT_MS (default 5000) bounds its wait for the brain.",
    ].join('\n\n'),
    examples: [['Recall for a prompt', `echo '{"session_id":"s1","prompt":"prep my call with Toby"}' | $0 hook claude-code user-prompt-submit`]],
  })

  harness = Option.String({ required: true, name: 'harness' })
  event = Option.String({ required: true, name: 'event' })

  protected async run(): Promise<number> {
    const { runHook } = await import('../hook.js')
    return runHook([this.harness, this.event], this.context.env, { stdin: this.context.stdin, stdout: this.context.stdout, cwd: this.context.cwd })
  }
}
