import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'
import type { RepairResult, RestoreResult } from '../../backup/index.js'

export class BackupCommand extends BrainCommand {
  static override paths = [['backup']]
  static override usage = Command.Usage({
    description: 'Back up the whole brain into one file while it stays in use',
    details:
      'A consistent copy of the database (the embedded data directory, or pg_dump on the server engine) with config.json and the migration ledger, checksummed, readable by you only. Default folder: $BRAIN_HOME/backups/.',
    examples: [
      ['Into the brain’s backups folder', '$0 backup'],
      ['Onto another disk', '$0 backup --to /mnt/usb/'],
    ],
  })
  to = Option.String('--to', { description: 'A file or an existing folder for the backup' })

  protected async run(): Promise<number> {
    const { createBackupTool } = await import('../../operations/backup.js')
    const { checkedArgs } = await import('../operation-command.js')
    const args = checkedArgs(createBackupTool, { to: this.to === undefined ? undefined : this.resolvePath(this.to) })
    await this.present(createBackupTool, await this.runOperation(createBackupTool, args))
    return 0
  }
}

/** Restore and repair replace the database the resident service holds open: it is stopped first. */
async function stopResidentService(home: string): Promise<void> {
  const [{ stopService }, { servicePaths }] = await Promise.all([import('../../service/control.js'), import('../../service/paths.js')])
  await stopService(servicePaths(home))
}

export class RestoreCommand extends BrainCommand {
  static override paths = [['restore']]
  static override usage = Command.Usage({
    description: 'Restore a backup into this brain',
    details:
      'Refuses a brain that has pages unless --force, and then keeps the current database aside (never deleted). Refuses a damaged or foreign file, changing nothing. Stops the resident service first; the next command starts it again.',
    examples: [
      ['Restore into a new brain', '$0 restore ~/.brain/backups/brain-20260101T000000000Z.brainbackup'],
      ['Replace a brain that has pages', '$0 restore backup.brainbackup --force'],
    ],
  })
  file = Option.String({ required: true, name: 'file' })
  force = Option.Boolean('--force', false, { description: 'Replace a brain that has pages (kept aside)' })

  protected async run(): Promise<number> {
    const config = await this.loadConfig()
    const { backupPlace, restoreBackup, openBackupFile } = await import('../../backup/index.js')
    const file = this.resolvePath(this.file)
    // A damaged or foreign file is refused before the service is disturbed.
    openBackupFile(file)
    await stopResidentService(config.home)
    const result: RestoreResult = await restoreBackup(file, backupPlace(config), { force: this.force })
    this.print(result, () =>
      [
        `restored ${result.pages} page${result.pages === 1 ? '' : 's'} from ${result.path} (made ${result.created_at})`,
        ...(result.kept_aside ? [`the previous database is kept at ${result.kept_aside}`] : []),
        ...(result.config_restored ? ['config.json was restored from the backup'] : []),
      ].join('\n'),
    )
    return 0
  }
}

function repairText(r: RepairResult): string {
  const lines = [...r.steps]
  if (r.status === 'restored') {
    if (r.not_in_backup.length === 0) lines.push('no file in the brain’s folders changed after the backup: nothing is missing that a folder could bring back')
    for (const f of r.not_in_backup) {
      lines.push(
        `${f.changed_count} file${f.changed_count === 1 ? '' : 's'} in ${f.dir} (${f.origin === 'source' ? `source ${f.source_id}` : 'write-through'}) changed after the backup; bring them back with: ${f.reimport}`,
      )
      for (const file of f.changed_files.slice(0, 20)) lines.push(`  ${file}`)
      if (f.changed_count > 20) lines.push(`  … and ${f.changed_count - 20} more (--json lists up to 200)`)
    }
    lines.push('Pages written only through the brain (put, capture, MCP) after the backup are not in it and have no file to bring them back from.')
  }
  return lines.join('\n')
}

export class RepairCommand extends BrainCommand {
  static override paths = [['repair']]
  static override usage = Command.Usage({
    description: 'Repair an embedded brain that no longer opens',
    details:
      'Tries PGLite’s own recovery first (write-ahead log replay on open). If the database stays closed, keeps the damaged directory aside (never deleted), restores the newest backup from $BRAIN_HOME/backups/, and lists the files changed since the backup with the command that re-imports them.',
    examples: [['Repair without asking', '$0 repair --yes']],
  })
  yes = Option.Boolean('--yes', false, { description: 'Restore the newest backup without asking' })

  protected async run(): Promise<number> {
    const config = await this.loadConfig()
    const { backupPlace, repairBrain } = await import('../../backup/index.js')
    const { isBrainError } = await import('../../errors/index.js')
    await stopResidentService(config.home)
    const place = backupPlace(config)
    let result: RepairResult
    try {
      result = await repairBrain(place, { yes: this.yes })
    } catch (err) {
      const asked = isBrainError(err) && err.code === 'repair_needs_confirmation' && (this.context.stdin as { isTTY?: boolean }).isTTY === true
      if (!asked) throw err
      const answer = await this.askLine(`${err.message}\nGo ahead? [y/N] `)
      if (!/^y(es)?$/i.test(answer.trim())) throw err
      result = await repairBrain(place, { yes: true })
    }
    this.print(result, () => repairText(result))
    return 0
  }
}
