/**
 * Agent skills (markdown under skills/) and the resolver table that `check-resolvable`
 * validates.
 * May import: util.
 */
export { parseResolver, readSkills, normalizeTrigger, RESOLVER_FILE, UNROUTED_DIRS, type ResolverRow, type Skill } from './resolver.js'
export { checkResolvable, type Finding, type FindingCode, type FindingLevel, type ResolvableReport } from './check.js'
