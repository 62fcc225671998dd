import { pendingOrchestrators, readLedger, stuckPartials } from '../releases/upgrade/index.js'
import { check, type DoctorCheck } from './types.js'

/**
 * The version-migration ledger. A `partial` entry is stuck unless a `complete` entry exists for
 * its version or a newer one (then it is stale and not reported); a stuck one fails the check.
 */
export function checkVersionMigrations(home: string, version: string): DoctorCheck {
  const ledger = readLedger(home)
  const stuck = stuckPartials(ledger.entries)
  if (stuck.length > 0) {
    const described = stuck.map((e) => {
      const failed = e.phases?.find((p) => p.status === 'failed')
      return `v${e.version} (partial since ${e.at}${failed ? `, phase ${failed.name} failed: ${failed.detail ?? ''}` : ''})`
    })
    return check('minions_migration', 'fail', `version migration stopped half-way: ${described.join('; ')}; run \`brain apply-migrations --yes\``)
  }
  const torn = ledger.invalidLines > 0 ? `; ${ledger.invalidLines} unreadable ledger line(s) ignored` : ''
  if (ledger.entries.length === 0) return check('minions_migration', ledger.invalidLines > 0 ? 'warn' : 'ok', `no version migrations recorded${torn}`)
  const pending = pendingOrchestrators(home, { version })
  if (pending.length > 0) {
    return check('minions_migration', 'warn', `version migrations pending: ${pending.map((o) => `v${o.version}`).join(', ')}; run \`brain apply-migrations\`${torn}`)
  }
  const completed = new Set(ledger.entries.filter((e) => e.status === 'complete').map((e) => e.version)).size
  return check('minions_migration', torn ? 'warn' : 'ok', `${completed} version migration(s) complete${torn}`)
}
