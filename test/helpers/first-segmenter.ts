import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrationsDir } from '../../src/db/migrate.js'

/**
 * brain_search_text() as migration 0460 first created it, read from that migration and renamed
 * to `name`: the reference its later form must match, and the baseline of its indexing cost.
 */
export function firstSearchTextFunction(name: string): string {
  const migration = readFileSync(join(migrationsDir(), '0460_search_cjk.sql'), 'utf8')
  const statement = /CREATE OR REPLACE FUNCTION brain_search_text\(t text\)[\s\S]*?\$\$ LANGUAGE sql IMMUTABLE;/.exec(migration)?.[0]
  if (statement === undefined) throw new Error('migration 0460 no longer holds the first brain_search_text')
  return statement.replace('FUNCTION brain_search_text(', `FUNCTION ${name}(`)
}
