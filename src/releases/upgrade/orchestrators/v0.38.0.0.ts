import { appendHostWork } from '../host-work.js'
import { skippedWithoutBrain, type VersionOrchestrator } from '../orchestrator.js'

const VERSION = '0.38.0.0'
export const SCHEMA_VERSION_KEY = 'schema_version'

/**
 * This release's schema lives in numbered SQL migrations, applied when the brain opens; this
 * orchestrator opens it (so they run now, not on some later command), records the schema
 * version, and points agents at the release's migration note.
 */
export const v0_38_0_0: VersionOrchestrator = {
  version: VERSION,
  summary: 'Apply the numbered schema migrations and queue the agent note skills/migrations/v0.38.0.0.md (no page is changed).',
  rewritesPages: false,
  phases: [
    {
      name: 'schema',
      async run(ctx) {
        if (!ctx.withBrain) return skippedWithoutBrain()
        const { schemaVersion } = await import('../schema-version.js')
        const state = await ctx.withBrain((db) => schemaVersion(db))
        ctx.state.set(SCHEMA_VERSION_KEY, state.applied)
        return { status: 'completed', detail: `schema at migration ${state.applied ?? 'none'} (${state.files} migration files)`, result: state }
      },
    },
    {
      name: 'agent-note',
      async run(ctx) {
        const { added } = appendHostWork(ctx.home, [
          {
            id: `v${VERSION}:skill`,
            version: VERSION,
            kind: 'read_skill',
            command: null,
            skill: `skills/migrations/v${VERSION}.md`,
            reason: 'Read the migration note of this release: new commands and job shapes agents should use.',
            created_at: ctx.now().toISOString(),
          },
        ])
        return { status: 'completed', detail: added > 0 ? 'agent note queued' : 'agent note already pending' }
      },
    },
  ],
}
