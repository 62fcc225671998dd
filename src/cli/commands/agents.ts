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
      "Merges brain's entries into the agent's own files and leaves every other entry as it was; a second run changes nothing. `--uninstall` removes brain's entries only and gives back files brain found as they were.",
      'Entries start brain through a launcher, `$BRAIN_HOME/bin/brain`, that every install rewrites to start this install with this node: brain need not be on PATH, and after an upgrade or a move one more install fixes every agent. The command is started with `--version` before any file is written. `--command` names another command line (split like a shell splits it).',
      "User scope writes the files in your home directory; project scope those of the project (`--project`, default the current directory), where committed files get only a lookup of each person's own launcher and this machine's parts go to the client's local settings. The install ends with what the client still needs (approving the project's MCP server, trusting the folder); `--trust` writes it where the client keeps it in a file. Gemini CLI starts no MCP server, not even a user-scope one, in a folder it does not trust: with user scope, `--trust --project <dir>` trusts that folder. `--dry-run` prints the diff instead of writing.",
      'Claude Code and Codex get hooks that recall what each prompt needs, orient each session and capture the transcript; Gemini CLI gets the recall and orientation hooks.',
    ].join('\n\n'),
    examples: [
      ['Install into Claude Code for every project', '$0 agents install claude-code'],
      ['Install into Gemini CLI for every project, trusting the folder it runs in', '$0 agents install gemini-cli --trust --project ~/code/app'],
      ['Install into one project for Codex, trusting it, showing the diff first', '$0 agents install codex --scope project --trust --dry-run'],
      ['Install with brain started by a given command', '$0 agents install gemini-cli --command "node /opt/brain/bin/brain.js"'],
      ['Remove brain from Cursor', '$0 agents install cursor --uninstall'],
    ],
  })

  agent = Option.String({ required: true, name: 'agent' })
  scope = Option.String('--scope', 'user', { description: 'user (your home directory, the default) or project' })
  project = Option.String('--project', {
    description: 'The project directory for --scope project (default: the current directory), or the folder gemini-cli --trust trusts in user scope; it must exist',
  })
  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the diff; write nothing' })
  uninstall = Option.Boolean('--uninstall', false, { description: "Remove brain's entries (with --trust, the trust it wrote too)" })
  command = Option.String('--command', { description: 'The command line that starts brain (default: the launcher in $BRAIN_HOME/bin, which starts this install)' })
  source = Option.String('--source', { description: 'The source the hooks and the MCP server work in' })
  trust = Option.Boolean('--trust', false, {
    description: "Write the project approval or folder trust the client needs (never written without it); in user scope, Gemini CLI's trust of --project",
  })

  protected async run(): Promise<number> {
    const { AGENTS, isAgentName, runInstall, planDiff, pendingSteps, splitCommandLine } = await import('../../agents/index.js')
    const { agentDirs, brainHome } = await import('../../config/home.js')
    if (!isAgentName(this.agent)) throw new UsageError('unknown_agent', `Unknown agent "${this.agent}".`, { hint: `One of: ${AGENTS.join(', ')}.` })
    if (this.scope !== 'user' && this.scope !== 'project') throw new UsageError('invalid_scope', `--scope is user or project, not "${this.scope}".`)
    // Gemini CLI starts no MCP server, not even a user-scope one, in a folder it does not trust.
    const userTrust = this.trust && this.scope === 'user' && this.agent === 'gemini-cli'
    if (this.trust && this.scope !== 'project' && !userTrust) {
      throw new UsageError('trust_needs_project', '--trust goes with --scope project: only a project needs approving or trusting (and, for gemini-cli, the folder it runs in).')
    }
    if (userTrust && this.project === undefined) {
      throw new UsageError('trust_needs_project', '--trust in user scope trusts the folder --project names.', {
        hint: 'Gemini CLI starts no MCP server in a folder it does not trust: name the folder you run it in.',
      })
    }
    if (this.project !== undefined && this.scope !== 'project' && !userTrust) throw new UsageError('project_needs_scope', '--project goes with --scope project (or with --trust for gemini-cli).')
    const project = this.resolvePath(this.project ?? '.')
    if ((this.scope === 'project' || userTrust) && !(await isDirectory(project))) {
      throw new UsageError('project_not_found', `${project} is not a directory.`, { hint: 'Check --project (brain does not create the project directory).' })
    }
    const dirs = agentDirs(this.context.env)
    const outcome = await runInstall(
      {
        agent: this.agent,
        scope: this.scope,
        project,
        dirs,
        brainHome: brainHome(this.context.env),
        command: this.command === undefined ? null : splitCommandLine(this.command),
        source: this.source ?? null,
        trust: this.trust,
        uninstall: this.uninstall,
      },
      { dryRun: this.dryRun, env: { ...this.context.env } },
    )
    const changes = outcome.changes
    const diff = this.dryRun ? await planDiff(changes) : null
    const pending = this.uninstall ? [] : pendingSteps(this.agent, this.scope, project, dirs)
    const result = {
      agent: this.agent,
      scope: this.scope,
      uninstall: this.uninstall,
      dryRun: this.dryRun,
      files: changes.map((c) => ({ path: c.path, holds: c.holds, status: c.status })),
      version: outcome.version,
      pending,
      ...(diff === null ? {} : { diff }),
    }
    this.print(result, () => {
      const body = diff !== null ? diff || 'no changes\n' : describe(changes, this.uninstall ? 'remove' : 'install')
      const steps = pending.length === 0 ? '' : `\n\nStill to do in the client:\n${pending.map((p) => `- ${p}`).join('\n')}`
      return `${body}${steps}`
    })
    return 0
  }
}

async function isDirectory(path: string): Promise<boolean> {
  const { stat } = await import('node:fs/promises')
  return (await stat(path).catch(() => null))?.isDirectory() === true
}

/** `brain hook <harness> <event>` for `--help`; the hook itself runs on the lean path in entry.ts. */
export class HookCommand extends BrainCommand {
  static override paths = [['hook']]
  static override usage = Command.Usage({
    description: "Answer a coding agent's hook (run by the agent, installed by `brain agents install`)",
    details: [
      "Reads the hook JSON on stdin and prints the agent's JSON answer, or nothing. Events: claude-code session-start, user-prompt-submit, pre-compact, stop; codex session-start, user-prompt-submit, stop; gemini-cli session-start, user-prompt-submit.",
      "A hook never blocks the agent: it always exits 0, and logs what went wrong to the brain's logs/hooks.log. BRAIN_HOOK_TIMEOUT_MS (default 5000) bounds its wait for the brain.",
    ].join('\n\n'),
    examples: [['Recall for a prompt', `echo '{"session_id":"s1","prompt":"prep my call with Toby"}' | $0 hook claude-code user-prompt-submit`]],
  })

  harness = Option.String({ required: true, name: 'harness' })
  event = Option.String({ required: true, name: 'event' })
  source = Option.String('--source', { description: 'The source the hook reads and writes (as installed with agents install --source)' })

  protected async run(): Promise<number> {
    const { runHook } = await import('../hook.js')
    return runHook([this.harness, this.event, ...(this.source === undefined ? [] : ['--source', this.source])], this.context.env, {
      stdin: this.context.stdin,
      stdout: this.context.stdout,
      cwd: this.context.cwd,
    })
  }
}
