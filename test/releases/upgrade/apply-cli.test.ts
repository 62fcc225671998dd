import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { cliBrain } from '../../helpers/cli.js'

for (const engine of ['pglite', 'postgres'] as const) {
  t.test(`apply-migrations asks first, then runs every version once [${engine}]`, async (t) => {
    const brain = await cliBrain(engine)
    t.teardown(() => brain.cleanup())
    t.equal((await brain.run(['init', '--json'])).code, 0)
    const home = brain.env.BRAIN_HOME!

    const gated = await brain.run(['apply-migrations'])
    t.equal(gated.code, 2, 'not a terminal and no --yes: exit 2')
    t.match(gated.json(), { error: { class: 'ConfirmationRequired', code: 'apply_migrations_confirmation_required', hint: /--yes/ } })
    t.notOk(existsSync(join(home, 'migrations', 'completed.jsonl')), 'nothing ran')

    const dry = await brain.run(['apply-migrations', '--dry-run', '--json'])
    t.equal(dry.code, 0)
    t.match(dry.json(), { status: 'preview', versions: [{ version: '0.22.4', rewrites_pages: false }, { version: '0.38.0.0' }] })

    const applied = await brain.run(['apply-migrations', '--yes', '--json'])
    t.equal(applied.code, 0, applied.stderr)
    const result = applied.json<{ status: string; versions: { version: string; status: string; phases: { name: string; status: string }[] }[] }>()
    t.equal(result.status, 'applied')
    t.same(
      result.versions.map((v) => [v.version, v.status]),
      [
        ['0.22.4', 'complete'],
        ['0.38.0.0', 'complete'],
      ],
    )
    t.same(
      result.versions[1]!.phases.map((p) => [p.name, p.status]),
      [
        ['schema', 'completed'],
        ['agent-note', 'completed'],
      ],
    )
    const state = JSON.parse(readFileSync(join(home, 'update-state.json'), 'utf8')) as { version: string; schema_version: number; completed_versions: string[] }
    t.equal(state.version, '0.38.0.0')
    t.ok(state.schema_version >= 120, 'the schema version is recorded')
    t.same(state.completed_versions, ['0.22.4', '0.38.0.0'])
    t.ok(existsSync(join(home, 'migrations', 'v0.22.4-audit.json')))
    const work = readFileSync(join(home, 'migrations', 'pending-host-work.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { skill?: string })
    t.same(
      work.map((w) => w.skill),
      ['skills/migrations/v0.38.0.0.md'],
    )

    const again = await brain.run(['apply-migrations', '--json'])
    t.equal(again.code, 0, 'nothing pending: no confirmation needed')
    t.match(again.json(), { status: 'up_to_date', versions: [] })
  })
}

t.test('apply-migrations without a brain skips the brain phases and creates no brain', async (t) => {
  const brain = await cliBrain('pglite')
  t.teardown(() => brain.cleanup())
  const home = brain.env.BRAIN_HOME!
  const res = await brain.run(['apply-migrations', '--yes', '--json'])
  t.equal(res.code, 0, res.stderr)
  const result = res.json<{ versions: { version: string; status: string; phases: { name: string; status: string }[] }[] }>()
  t.same(
    result.versions.map((v) => v.status),
    ['complete', 'complete'],
  )
  t.same(
    result.versions[0]!.phases.map((p) => p.status),
    ['completed', 'skipped', 'skipped'],
  )
  t.same(
    result.versions[1]!.phases.map((p) => p.status),
    ['skipped', 'completed'],
  )
  // (The resident service opens its home's brain when it starts; in-process nothing is created.)
  if (brain.env.BRAIN_NO_SERVICE === '1') t.notOk(existsSync(join(home, 'db')), 'no embedded brain was created')
})
