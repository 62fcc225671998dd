import type { SqlExecutor } from '../db/index.js'

/**
 * What an unset key of the database's config table means, written as `config set` would take it.
 * The capabilities that read these keys take their defaults from here, so that `config get`
 * shows what the brain really does rather than `null`.
 */
const DEFAULTS = {
  auto_link: 'true',
  'backup.interval': '1d',
  'backup.keep': '7',
  'history.max_versions': '100',
  'history.trash_retention': '30d',
  'history.version_code': 'false',
  'links.entity_types': 'person,company,organization,org,project,place',
  'links.mention_stoplist': 'the,and,you,this,that,home,index,inbox,note,notes,todo,readme,project,person,people,place,company',
  'search.language': 'english',
  'search.rerank_top': '30',
  'search.rerank_budget_ms': '2000',
} as const

type DefaultedConfigKey = keyof typeof DEFAULTS
export const DB_CONFIG_DEFAULTS: Readonly<Record<DefaultedConfigKey, string>> = DEFAULTS

/** One key as the brain uses it: the stored value, else its default; `default` says which. */
export interface ConfigEntry {
  key: string
  /** Null only for a key that is unset and has no default. */
  value: string | null
  default: boolean
}

function defaultOf(key: string): string | null {
  return Object.hasOwn(DB_CONFIG_DEFAULTS, key) ? DB_CONFIG_DEFAULTS[key as DefaultedConfigKey] : null
}

export async function effectiveConfigValue(db: SqlExecutor, key: string): Promise<ConfigEntry> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM config WHERE key = $1', [key])
  const stored = rows[0]?.value
  return stored === undefined ? { key, value: defaultOf(key), default: true } : { key, value: stored, default: false }
}

/** Every stored key and every key with a default, by key. */
export async function effectiveConfigList(db: SqlExecutor): Promise<ConfigEntry[]> {
  const { rows } = await db.query<{ key: string; value: string }>('SELECT key, value FROM config ORDER BY key')
  const stored = new Map(rows.map((r) => [r.key, r.value]))
  const keys = [...new Set([...stored.keys(), ...Object.keys(DB_CONFIG_DEFAULTS)])].sort()
  return keys.map((key) => {
    const value = stored.get(key)
    return value === undefined ? { key, value: defaultOf(key), default: true } : { key, value, default: false }
  })
}
