import { Command } from 'clipanion'
import { BrainCommand } from '../brain-command.js'

export class CheckUpdateCommand extends BrainCommand {
  static override paths = [['check-update']]
  static override usage = Command.Usage({
    description: 'Check the releases feed for a newer minor or major release and show its changelog',
    details: "Patch-only releases are skipped. The feed is the project's releases on its code host; BRAIN_UPDATE_FEED_URL points at another. Offline, the command says so and exits 0.",
    examples: [
      ['Check', '$0 check-update'],
      ['For a script', '$0 check-update --json'],
    ],
  })

  protected async run(): Promise<number> {
    const { checkForUpdate, updateFeedUrl } = await import('../../releases/update/index.js')
    const { currentVersion } = await import('../../releases/version/index.js')
    const current = currentVersion()
    const result = await checkForUpdate(current, updateFeedUrl(this.context.env))
    this.print(result, () => {
      const lines = [result.message]
      for (const entry of result.changelog) {
        lines.push('', `## ${entry.version}${entry.publishedAt ? ` (${entry.publishedAt.slice(0, 10)})` : ''}`, entry.notes || '(no release notes)')
      }
      return lines.join('\n')
    })
    return 0
  }
}
