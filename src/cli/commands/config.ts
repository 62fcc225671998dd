import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

function normalizeValue(key: string, value: string): string {
  if (key === 'auto_link') {
    const lowered = value.trim().toLowerCase()
    if (!['true', 'false'].includes(lowered)) throw new UsageError('invalid_config_value', `auto_link must be true or false, not "${value}".`)
    return lowered
  }
  return value
}

export class ConfigGetCommand extends BrainCommand {
  static override paths = [['config', 'get']]
  static override usage = Command.Usage({ description: 'Print a config value (auto_link, sync.repo_path, sync.last_commit, …)' })
  key = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { readConfigValue, BACKUP_CONFIG_KEYS, BACKUP_DEFAULTS } = await import('../../config/index.js')
    const stored = await this.withBrain(({ db }) => readConfigValue(db, this.key))
    // Keys with a default answer with it until they are set.
    const defaults: Record<string, string> = { [BACKUP_CONFIG_KEYS[0]]: String(BACKUP_DEFAULTS.keep), [BACKUP_CONFIG_KEYS[1]]: '1d' }
    const value = stored ?? defaults[this.key] ?? null
    this.print({ key: this.key, value }, () => value ?? '')
    return value === null && !this.jsonMode ? 1 : 0
  }
}

export class ConfigSetCommand extends BrainCommand {
  static override paths = [['config', 'set']]
  static override usage = Command.Usage({
    description: 'Set a config value',
    examples: [
      ['Mirror pages to a folder', '$0 config set sync.repo_path ~/brain'],
      ['Turn off automatic links', '$0 config set auto_link false'],
    ],
  })
  key = Option.String({ required: true })
  value = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { writeConfigValue, normalizeBackupValue } = await import('../../config/index.js')
    let value = normalizeBackupValue(this.key, normalizeValue(this.key, this.value))
    if (this.key === 'sync.repo_path') value = this.resolvePath(value)
    await this.withBrain(({ db }) => writeConfigValue(db, this.key, value))
    this.print({ key: this.key, value }, () => `${this.key} = ${value}`)
    return 0
  }
}

export class ConfigListCommand extends BrainCommand {
  static override paths = [['config', 'list']]
  static override usage = Command.Usage({ description: 'Print every config value stored in the brain' })

  protected async run(): Promise<number> {
    const { listConfigValues } = await import('../../config/index.js')
    const values = await this.withBrain(({ db }) => listConfigValues(db))
    this.print(values, () =>
      Object.entries(values)
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n'),
    )
    return 0
  }
}
