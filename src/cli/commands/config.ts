import { Command, Option } from 'clipanion'
import { LLM_MODEL_KEY, LLM_URL_KEY, normalizeLlmUrl } from '../../config/index.js'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

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
  static override usage = Command.Usage({ description: 'Print a config value (auto_link, sync.repo_path, sync.last_commit, llm.url, llm.model, …)' })
  key = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { readConfigValue } = await import('../../config/index.js')
    const value = await this.withBrain(({ db }) => readConfigValue(db, this.key))
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
      ['Answer with a local model', '$0 config set llm.url http://127.0.0.1:11434/v1 && $0 config set llm.model llama3.1'],
    ],
  })
  key = Option.String({ required: true })
  value = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { writeConfigValue } = await import('../../config/index.js')
    let value = normalizeValue(this.key, this.value)
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
