import type { SqlExecutor } from '../db/index.js'

/** Keys the spec keeps in the database's `config` table. */
export const DB_CONFIG_KEYS = ['auto_link', 'sync.repo_path', 'sync.last_commit'] as const

export async function readConfigValue(db: SqlExecutor, key: string): Promise<string | null> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM config WHERE key = $1', [key])
  return rows[0]?.value ?? null
}

export async function writeConfigValue(db: SqlExecutor, key: string, value: string): Promise<void> {
  await db.query(
    `INSERT INTO config (key, value, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, value],
  )
}

export async function deleteConfigValue(db: SqlExecutor, key: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM config WHERE key = $1', [key])
  return rowCount > 0
}
