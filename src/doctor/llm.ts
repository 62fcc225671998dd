import type { Config } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { check, type DoctorCheck } from './types.js'

/** Whether `llm.url` answers and lists `llm.model`; no model configured is fine (answers are extractive). */
export async function checkLlm(db: SqlExecutor, config: Config): Promise<DoctorCheck> {
  const { readLlmSettings } = await import('../config/index.js')
  const settings = await readLlmSettings(db, config.llm)
  if (settings === null) return check('llm', 'ok', 'no chat model configured (llm.url, llm.model): `brain ask` answers extractively')
  const { listModels, ChatError } = await import('../answers/index.js')
  try {
    const models = await listModels(settings)
    if (models.includes(settings.model)) return check('llm', 'ok', `${settings.url} answers and serves ${settings.model}`)
    const some = models.slice(0, 8).join(', ')
    return check(
      'llm',
      'warn',
      `${settings.url} answers but does not list ${settings.model}${some ? ` (it serves ${some}${models.length > 8 ? ', …' : ''})` : ''}; set one with \`brain config set llm.model <name>\``,
    )
  } catch (err) {
    if (!(err instanceof ChatError)) throw err
    return check('llm', 'warn', `${err.message} ${err.hint} (${err.code})`)
  }
}
