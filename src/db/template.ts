import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { packageRoot } from '../util/package-root.js'
import { loadMigrations, migrate, type Migration } from './migrate.js'

/**
 * A new embedded brain starts from a pre-migrated empty database instead of creating one from
 * nothing: PGLite's initdb and the migrations take about 4 s, loading the snapshot about 1 s.
 * The snapshot is built once (`npm run build`) into dist/, beside a fingerprint of the migrations
 * it holds; it is used only while that fingerprint matches the migrations on disk, so a stale
 * snapshot never changes what a brain's schema is (a new brain is then made the slow way).
 */

function templatePaths(): { archive: string; fingerprint: string } {
  const dir = join(packageRoot(), 'dist', 'templates')
  return { archive: join(dir, 'pglite-empty.tar.gz'), fingerprint: join(dir, 'pglite-empty.migrations') }
}

/** Every migration's number, name and text: what a snapshot must have been built from. */
function migrationsFingerprint(migrations: readonly Migration[] = loadMigrations()): string {
  const hash = createHash('sha256')
  for (const m of migrations) hash.update(`${m.version}\0${m.name}\0${m.sql}\0`)
  return hash.digest('hex')
}

/** The snapshot as PGLite loads it, or null when there is none for these migrations. */
export function readEmptyTemplate(): Blob | null {
  const paths = templatePaths()
  try {
    if (!existsSync(paths.archive) || readFileSync(paths.fingerprint, 'utf8').trim() !== migrationsFingerprint()) return null
    return new Blob([gunzipSync(readFileSync(paths.archive))])
  } catch {
    return null
  }
}

/** Builds the snapshot from a fresh in-memory database; written atomically. */
export async function buildEmptyTemplate(): Promise<{ bytes: number; path: string }> {
  const { openPglite } = await import('./pglite-driver.js')
  const db = await openPglite({ dataDir: 'memory', memory: true })
  let archive: Buffer
  try {
    await migrate(db)
    archive = gzipSync(Buffer.from(await (await db.dumpDataDir!()).arrayBuffer()))
  } finally {
    await db.close()
  }
  const paths = templatePaths()
  mkdirSync(dirname(paths.archive), { recursive: true })
  writeFileSync(`${paths.archive}.tmp`, archive)
  renameSync(`${paths.archive}.tmp`, paths.archive)
  writeFileSync(paths.fingerprint, `${migrationsFingerprint()}\n`)
  return { bytes: archive.length, path: paths.archive }
}

// `node dist/src/db/template.js` builds the snapshot (run by `npm run build` and the test script).
if (process.argv[1] !== undefined && /(?:^|[\\/])template\.js$/.test(process.argv[1])) {
  const built = await buildEmptyTemplate()
  process.stdout.write(`empty brain template: ${built.path} (${(built.bytes / 1048576).toFixed(1)} MiB)\n`)
}
