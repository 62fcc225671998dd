import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'

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
