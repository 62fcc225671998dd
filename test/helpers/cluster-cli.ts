/**
 * Used by scripts/test.sh: `start` starts a cluster, prepares a migrated template database and
 * prints shell exports; `stop <dir>` stops it.
 */
import { openPostgres } from '../../src/db/pg-driver.js'
import { migrate } from '../../src/db/migrate.js'
import { startPgCluster, stopPgClusterDir } from './pg-cluster.js'

const TEMPLATE = 'brain_template'

async function main(): Promise<void> {
  const [command, dir] = process.argv.slice(2)
  if (command === 'start') {
    const cluster = await startPgCluster()
    const admin = await openPostgres({ url: cluster.adminUrl, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: true })
    await admin.exec(`CREATE DATABASE ${TEMPLATE}`)
    await admin.close()
    const templateDb = await openPostgres({ url: cluster.adminUrl.replace(/\/postgres$/, `/${TEMPLATE}`), statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: true })
    await migrate(templateDb)
    await templateDb.close()
    process.stdout.write(`export BRAIN_TEST_PG_URL='${cluster.adminUrl}'\nexport BRAIN_TEST_PG_TEMPLATE='${TEMPLATE}'\nexport BRAIN_TEST_PG_DIR='${cluster.dir}'\n`)
    return
  }
  if (command === 'stop' && dir) {
    stopPgClusterDir(dir)
    return
  }
  process.stderr.write('usage: cluster-cli start | stop <dir>\n')
  process.exitCode = 2
}

await main()
