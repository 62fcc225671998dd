import { existsSync, readFileSync } from 'node:fs'
import { join, normalize as normalizePath } from 'node:path'
import { normalizeTrigger, parseResolver, readSkills, RESOLVER_FILE, type Skill } from './resolver.js'

export type FindingLevel = 'error' | 'warning'

export type FindingCode =
  'resolver_missing' | 'missing_skill_file' | 'invalid_skill' | 'duplicate_skill_name' | 'conflicting_trigger' | 'unreachable_skill' | 'overlapping_trigger' | 'empty_resolver_row'

export interface Finding {
  level: FindingLevel
  code: FindingCode
  message: string
  file: string | null
}

export interface ResolvableReport {
  dir: string
  skills: number
  routes: number
  errors: number
  warnings: number
  findings: Finding[]
}

function resolverFindings(dir: string, skills: Skill[]): { findings: Finding[]; routes: number } {
  const findings: Finding[] = []
  const resolverPath = join(dir, RESOLVER_FILE)
  if (!existsSync(resolverPath)) {
    findings.push({ level: 'error', code: 'resolver_missing', message: `${RESOLVER_FILE} is missing, so no skill can be reached.`, file: RESOLVER_FILE })
    return { findings, routes: 0 }
  }
  const rows = parseResolver(readFileSync(resolverPath, 'utf8'))
  const known = new Set(skills.map((s) => s.file))
  const reached = new Set<string>()
  const targetsByTrigger = new Map<string, Set<string>>()
  for (const row of rows) {
    const where = `${RESOLVER_FILE}:${row.line}`
    if (row.trigger === '' || row.skill === '') {
      findings.push({ level: 'error', code: 'empty_resolver_row', message: `${where} needs both a trigger and a skill file.`, file: RESOLVER_FILE })
      continue
    }
    const target = normalizePath(row.skill).split('\\').join('/')
    if (!known.has(target)) {
      const reason = existsSync(join(dir, target)) ? 'is not a routable skill file' : 'does not exist'
      findings.push({ level: 'error', code: 'missing_skill_file', message: `${where} routes "${row.trigger}" to ${row.skill}, which ${reason}.`, file: row.skill })
      continue
    }
    reached.add(target)
    const key = normalizeTrigger(row.trigger)
    targetsByTrigger.set(key, (targetsByTrigger.get(key) ?? new Set()).add(target))
  }
  for (const [trigger, targets] of targetsByTrigger) {
    if (targets.size > 1) {
      findings.push({
        level: 'error',
        code: 'conflicting_trigger',
        message: `The trigger "${trigger}" routes to ${[...targets].join(' and ')}; an agent cannot tell which to use.`,
        file: RESOLVER_FILE,
      })
    }
  }
  for (const skill of skills) {
    if (!reached.has(skill.file)) {
      findings.push({ level: 'warning', code: 'unreachable_skill', message: `${skill.file} is not routed from ${RESOLVER_FILE}; no agent will find it.`, file: skill.file })
    }
  }
  return { findings, routes: rows.length }
}

function skillFindings(skills: Skill[]): Finding[] {
  const findings: Finding[] = []
  for (const skill of skills) {
    if (skill.problems.length > 0) findings.push({ level: 'error', code: 'invalid_skill', message: `${skill.file}: ${skill.problems.join('; ')}.`, file: skill.file })
  }
  const byName = new Map<string, string[]>()
  for (const skill of skills) if (skill.name) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill.file])
  for (const [name, files] of byName) {
    if (files.length > 1) findings.push({ level: 'error', code: 'duplicate_skill_name', message: `The skill name "${name}" is used by ${files.join(' and ')}.`, file: files[1]! })
  }
  // Two skills claiming the same phrase, or one phrase containing another's, compete for requests.
  const claims = skills.flatMap((s) => s.triggers.map((t) => ({ trigger: normalizeTrigger(t), file: s.file })))
  const reported = new Set<string>()
  for (const a of claims) {
    for (const b of claims) {
      if (a.file >= b.file || !(a.trigger === b.trigger || ` ${b.trigger} `.includes(` ${a.trigger} `) || ` ${a.trigger} `.includes(` ${b.trigger} `))) continue
      const key = `${a.file}|${b.file}|${a.trigger}|${b.trigger}`
      if (reported.has(key)) continue
      reported.add(key)
      const how = a.trigger === b.trigger ? `both claim "${a.trigger}"` : `"${a.trigger}" and "${b.trigger}" overlap`
      findings.push({ level: 'warning', code: 'overlapping_trigger', message: `${a.file} and ${b.file}: ${how}.`, file: b.file })
    }
  }
  return findings
}

/** Checks that agents can route to every skill in `dir` and that no request routes two ways. */
export function checkResolvable(dir: string): ResolvableReport {
  const skills = readSkills(dir)
  const routing = resolverFindings(dir, skills)
  const findings = [...routing.findings, ...skillFindings(skills)].sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1))
  return {
    dir,
    skills: skills.length,
    routes: routing.routes,
    errors: findings.filter((f) => f.level === 'error').length,
    warnings: findings.filter((f) => f.level === 'warning').length,
    findings,
  }
}
