import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runBrain } from '../helpers/cli.js'

interface Report {
  skills: number
  routes: number
  errors: number
  warnings: number
  findings: Array<{ level: string; code: string; message: string; file: string | null }>
}

const env = () => ({ BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-skills-home-')) })

const skill = (name: string, triggers: string[]) => `---\nname: ${name}\ndescription: Does ${name}.\ntriggers:\n${triggers.map((t) => `  - ${t}`).join('\n')}\n---\n# ${name}\n`

function skillsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'brain-skills-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

const resolver = (rows: Array<[string, string]>) => `# Resolver\n\n| Trigger | Skill |\n|---|---|\n${rows.map(([t, s]) => `| ${t} | \`${s}\` |`).join('\n')}\n`

t.test('the shipped skills are all reachable, with no overlaps', async (t) => {
  const result = await runBrain(['check-resolvable', '--json'], env())
  t.equal(result.code, 0, result.stdout)
  const report = result.json<Report>()
  t.ok(report.skills >= 5, `${report.skills} skills`)
  t.same(report.findings, [])
})

t.test('a clean folder passes; migrations/ notes are not routed skills', async (t) => {
  const dir = skillsDir({
    'RESOLVER.md': resolver([
      ['save a thing', 'save.md'],
      ['find a thing', 'nested/find.md'],
    ]),
    'save.md': skill('save', ['save a thing']),
    'nested/find.md': skill('find', ['find a thing']),
    'migrations/v0.38.0.0.md': '# What to do after upgrading\n',
  })
  const result = await runBrain(['check-resolvable', '--dir', dir, '--json'], env())
  t.equal(result.code, 0)
  t.match(result.json<Report>(), { skills: 2, routes: 2, errors: 0, warnings: 0 })
})

t.test('unreachable skills and overlapping triggers are warnings (exit 0)', async (t) => {
  const dir = skillsDir({
    'RESOLVER.md': resolver([
      ['save a thing', 'save.md'],
      ['save a thing quickly', 'quick.md'],
    ]),
    'save.md': skill('save', ['save a thing']),
    'quick.md': skill('quick', ['save a thing quickly']),
    'orphan.md': skill('orphan', ['something else']),
  })
  const result = await runBrain(['check-resolvable', '--dir', dir, '--json'], env())
  t.equal(result.code, 0)
  const report = result.json<Report>()
  t.match(report, { errors: 0, warnings: 2 })
  t.ok(report.findings.some((f) => f.code === 'unreachable_skill' && f.file === 'orphan.md'))
  t.match(
    report.findings.find((f) => f.code === 'overlapping_trigger'),
    { level: 'warning', message: /quick\.md and save\.md: "save a thing( quickly)?" and "save a thing( quickly)?" overlap/ },
  )
  const human = await runBrain(['check-resolvable', '--dir', dir, '--no-json'], env())
  t.match(human.stdout, /^warning unreachable_skill: orphan\.md is not routed/m)
  t.match(human.stdout, /3 skills, 2 routes: 0 errors, 2 warnings/)
})

t.test('missing files, invalid skills, duplicate names and conflicting triggers are errors (exit 1)', async (t) => {
  const dir = skillsDir({
    'RESOLVER.md': resolver([
      ['save a thing', 'save.md'],
      ['save a thing', 'other.md'],
      ['gone', 'gone.md'],
      ['bare', 'bare.md'],
      ['', 'save.md'],
    ]),
    'save.md': skill('save', ['save a thing']),
    'other.md': skill('save', ['keep a thing']),
    'bare.md': '---\nname: bare\n---\nno description, no triggers\n',
  })
  const result = await runBrain(['check-resolvable', '--dir', dir, '--json'], env())
  t.equal(result.code, 1)
  const report = result.json<Report>()
  const codes = report.findings
    .filter((f) => f.level === 'error')
    .map((f) => f.code)
    .sort()
  t.same(codes, ['conflicting_trigger', 'duplicate_skill_name', 'empty_resolver_row', 'invalid_skill', 'missing_skill_file'])
  t.match(
    report.findings.find((f) => f.code === 'missing_skill_file'),
    { message: /RESOLVER\.md:7 routes "gone" to gone\.md, which does not exist/ },
  )
  t.match(
    report.findings.find((f) => f.code === 'invalid_skill'),
    { file: 'bare.md', message: /description is missing; triggers must be/ },
  )
  t.match(
    report.findings.find((f) => f.code === 'conflicting_trigger'),
    { message: /"save a thing" routes to (save|other)\.md and (other|save)\.md/ },
  )
})

t.test('a folder without RESOLVER.md, and a folder that does not exist', async (t) => {
  const dir = skillsDir({ 'save.md': skill('save', ['save']) })
  const noResolver = await runBrain(['check-resolvable', '--dir', dir, '--json'], env())
  t.equal(noResolver.code, 1)
  t.match(noResolver.json<Report>().findings, [{ level: 'error', code: 'resolver_missing' }])
  const missing = await runBrain(['check-resolvable', '--dir', join(dir, 'nope'), '--json'], env())
  t.equal(missing.code, 1)
  t.match(missing.json<{ error: { code: string } }>().error, { class: 'NotFoundError', code: 'skills_dir_not_found' })
})
