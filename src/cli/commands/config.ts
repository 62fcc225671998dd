import { Command, Option } from 'clipanion'
import { LLM_MODEL_KEY, LLM_URL_KEY, normalizeLlmUrl } from '../../config/index.js'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'
import type { ConfigEntry } from '../../config/index.js'

/** A value for a person: `(default)` marks one the brain falls back to, unset marks none at all. */
function describeEntry(entry: ConfigEntry, listing: boolean): string {
  if (entry.value === null) return listing ? '(unset)' : ''
  return entry.default ? `${entry.value} (default)` : entry.value
}

function normalizeValue(key: string, value: string): string {
  if (key === 'auto_link') {
    const lowered = value.trim().toLowerCase()
    if (!['true', 'false'].includes(lowered)) throw new UsageError('invalid_config_value', `auto_link must be true or false, not "${value}".`)
    return lowered
  }
  if (key === LLM_URL_KEY) return normalizeLlmUrl(value)
  if (key === LLM_MODEL_KEY) {
    if (value.trim() === '') throw new UsageError('invalid_config_value', 'llm.model must name a model.')
    return value.trim()
  }
  return value
}

export class ConfigGetCommand extends BrainCommand {
  static override paths = [['config', 'get']]
  static override usage = Command.Usage({ description: 'Print the value in effect of a config key (auto_link, history.max_versions, sync.repo_path, llm.url, llm.model, …), stored or default' })
  key = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { effectiveConfigValue } = await import('../../config/index.js')
    const entry = await this.withBrain(({ db }) => effectiveConfigValue(db, this.key))
    this.print(entry, () => describeEntry(entry, false))
    return entry.value === null && !this.jsonMode ? 1 : 0
  }
}

export class ConfigSetCommand extends BrainCommand {
  static override paths = [['config', 'set']]
  static override usage = Command.Usage({
    description: 'Set a config value',
    examples: [
      ['Mirror pages to a folder', '$0 config set sync.repo_path ~/brain'],
      ['Turn off automatic links', '$0 config set auto_link false'],
      ['Answer with a local model', '$0 config set llm.url http://127.0.0.1:11434/v1 && $0 config set llm.model llama3.1'],
    ],
  })
  key = Option.String({ required: true })
  value = Option.String({ required: true })

  protected async run(): Promise<number> {
    const [{ writeConfigValue }, { normalizeBackupValue }] = await Promise.all([import('../../config/index.js'), import('../../backup/index.js')])
    let value = normalizeBackupValue(this.key, normalizeValue(this.key, this.value))
    if (this.key === 'sync.repo_path') value = this.resolvePath(value)
    await this.withBrain(({ db }) => writeConfigValue(db, this.key, value))
    this.print({ key: this.key, value }, () => `${this.key} = ${value}`)
    return 0
  }
}

export class ConfigListCommand extends BrainCommand {
  static override paths = [['config', 'list']]
  static override usage = Command.Usage({ description: 'Print every config value in effect, stored or default' })

  protected async run(): Promise<number> {
    const { effectiveConfigList } = await import('../../config/index.js')
    const entries = await this.withBrain(({ db }) => effectiveConfigList(db))
    this.print(entries, () => entries.map((e) => `${e.key} = ${describeEntry(e, true)}`).join('\n'))
    return 0
  }
}
