import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { packageRoot } from '../util/package-root.js'
import { loadMigrations, migrate, type Migration } from './migrate.js'
import { trimArchiveWal } from './template-wal.js'

/**
 * A new embedded brain starts from a pre-migrated empty database instead of creating one from
 * nothing: PGLite's initdb and the migrations take about 4 s. The snapshot is built once
 * (`npm run build`) into dist/, beside a fingerprint of the migrations it holds, in two forms:
 * a data directory a new on-disk brain copies (a file copy, then PGLite opens it as an existing
 * database: about a second less than unpacking an archive through PGLite), and a gzipped archive
 * that in-memory databases load. Either is used only while the fingerprint matches the migrations
 * on disk, so a stale snapshot never changes what a brain's schema is (a new brain is then made
 * the slow way).
 */

function templatePaths(): { archive: string; directory: string; fingerprint: string } {
  const dir = join(packageRoot(), 'dist', 'templates')
  return { archive: join(dir, 'pglite-empty.tar.gz'), directory: join(dir, 'pglite-empty'), fingerprint: join(dir, 'pglite-empty.migrations') }
}

function templateIsCurrent(fingerprintPath: string): boolean {
  try {
    return readFileSync(fingerprintPath, 'utf8').trim() === migrationsFingerprint()
  } catch {
    return false
  }
}

/** Every migration's number, name and text: what a snapshot must have been built from. */
function migrationsFingerprint(migrations: readonly Migration[] = loadMigrations()): string {
  const hash = createHash('sha256')
  for (const m of migrations) hash.update(`${m.version}\0${m.name}\0${m.sql}\0`)
  return hash.digest('hex')
}

/**
 * An archive already in memory. Node's `Blob.arrayBuffer` streams a blob's parts in small reads
 * and joins them into new memory, about 60 ms of CPU for this snapshot at every in-memory open;
 * PGLite reads the archive with `arrayBuffer` alone and copies each member into its own file
 * system, so every open is handed the same bytes, which nothing writes to.
 */
class ArchiveInMemory extends Blob {
  readonly #bytes: ArrayBuffer

  constructor(bytes: Uint8Array) {
    super([bytes])
    this.#bytes = new Uint8Array(bytes).buffer
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes)
  }
}

/** The snapshot as PGLite loads it, or null when there is none for these migrations. */
export function readEmptyTemplate(): Blob | null {
  const paths = templatePaths()
  try {
    if (!existsSync(paths.archive) || !templateIsCurrent(paths.fingerprint)) return null
    return new ArchiveInMemory(gunzipSync(readFileSync(paths.archive)))
  } catch {
    return null
  }
}

/** The snapshot's data directory, to be copied as a whole, or null when there is none for these migrations. */
export function emptyTemplateDirectory(): string | null {
  const paths = templatePaths()
  return existsSync(join(paths.directory, 'PG_VERSION')) && templateIsCurrent(paths.fingerprint) ? paths.directory : null
}

/** Builds both forms of the snapshot from one migrated database; each is written atomically. */
export async function buildEmptyTemplate(): Promise<{ bytes: number; path: string }> {
  const { openPglite } = await import('./pglite-driver.js')
  const paths = templatePaths()
  mkdirSync(dirname(paths.archive), { recursive: true })
  // A fingerprint left from an earlier build must not vouch for a half-written snapshot.
  rmSync(paths.fingerprint, { force: true })
  const memory = await openPglite({ dataDir: 'memory', memory: true })
  let dump: Blob
  try {
    await migrate(memory)
    // A brain only ever opens its `postgres` database. Without the two template databases a new
    // brain is half the files to copy, and creating files is most of what copying costs.
    for (const name of ['template0', 'template1']) {
      await memory.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`)
      await memory.exec(`DROP DATABASE ${name}`)
    }
    // The log so far goes to a segment of its own that the checkpoint leaves behind, so the
    // snapshot keeps only the checkpoint's few bytes of log (trimArchiveWal).
    await memory.query('SELECT pg_switch_wal()')
    await memory.query('CHECKPOINT')
    const { rows } = await memory.query<{ name: string }>('SELECT pg_walfile_name(pg_current_wal_lsn()) AS name')
    const dumped = new Uint8Array(await (await memory.dumpDataDir!()).arrayBuffer())
    dump = new Blob([trimArchiveWal(dumped, rows[0]!.name)])
  } finally {
    await memory.close()
  }
  const archive = gzipSync(Buffer.from(await dump.arrayBuffer()))
  writeFileSync(`${paths.archive}.tmp`, archive)
  renameSync(`${paths.archive}.tmp`, paths.archive)

  // The directory form: the same dump unpacked by PGLite into a folder, then closed cleanly.
  const staging = `${paths.directory}.tmp`
  rmSync(staging, { recursive: true, force: true })
  const onDisk = await openPglite({ dataDir: staging, template: dump })
  await onDisk.close()
  rmSync(paths.directory, { recursive: true, force: true })
  renameSync(staging, paths.directory)

  writeFileSync(paths.fingerprint, `${migrationsFingerprint()}\n`)
  return { bytes: archive.length, path: paths.archive }
}

// `node dist/src/db/template.js` builds the snapshot (run by `npm run build` and the test script).
if (process.argv[1] !== undefined && /(?:^|[\\/])template\.js$/.test(process.argv[1])) {
  const built = await buildEmptyTemplate()
  process.stdout.write(`empty brain template: ${built.path} (${(built.bytes / 1048576).toFixed(1)} MiB)\n`)
}
