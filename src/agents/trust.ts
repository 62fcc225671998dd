/**
 * The trust or approval a client needs before it uses brain's entries, written only with
 * `--trust`: Claude Code's approval of the project's MCP server and its accepted trust dialog,
 * Codex's trusted project, Gemini CLI's trusted folder (which its user-scope servers need too).
 */
import { join } from 'node:path'
import { ConfigError } from '../errors/index.js'
import { SERVER_NAME, type FileTarget, type TargetOptions } from './entries.js'
import { formatJson, holdsValue, isObject, objectAt, parseJsonConfig } from './json-config.js'
import { editTomlTable, readTomlTable, tomlString } from './toml-table.js'

/** Claude Code's `enabledMcpjsonServers` in a project's local settings: add brain, take it out, or leave it. */
export function setApproval(path: string, value: Record<string, unknown>, action: 'add' | 'remove' | 'keep'): void {
  if (action === 'keep') return
  const found = value.enabledMcpjsonServers
  if (found !== undefined && !Array.isArray(found))
    throw new ConfigError('agent_config_unreadable', `${path}: enabledMcpjsonServers is not a list.`, { hint: 'Fix the file, then run the install again.' })
  const list = (found ?? []) as unknown[]
  if (action === 'add' && !list.includes(SERVER_NAME)) value.enabledMcpjsonServers = [...list, SERVER_NAME]
  if (action === 'remove' && list.includes(SERVER_NAME)) {
    const rest = list.filter((s) => s !== SERVER_NAME)
    if (rest.length > 0) value.enabledMcpjsonServers = rest
    else delete value.enabledMcpjsonServers
  }
}

export function claudeTrustFile(o: Pick<TargetOptions, 'dirs'>): string {
  return join(o.dirs.home, '.claude.json')
}

/** Claude Code's record of one project in ~/.claude.json, or undefined; a project that is not an object is refused. */
function claudeProject(path: string, value: Record<string, unknown>, project: string): Record<string, unknown> | undefined {
  const projects = value.projects
  if (projects === undefined) return undefined
  if (!isObject(projects)) throw new ConfigError('agent_config_unreadable', `${path}: "projects" is not an object.`, { hint: 'Fix the file, then run the install again.' })
  const entry = projects[project]
  if (entry === undefined) return undefined
  if (!isObject(entry)) throw new ConfigError('agent_config_unreadable', `${path}: projects[${JSON.stringify(project)}] is not an object.`, { hint: 'Fix the file, then run the install again.' })
  return entry
}

/** What `hasTrustDialogAccepted` was for the project in the file brain first found: absent when it was not set. */
function trustFound(path: string, original: string | null, project: string): { found: unknown } {
  if (original === null) return { found: undefined }
  try {
    const value: unknown = JSON.parse(original)
    return { found: isObject(value) ? claudeProject(path, value, project)?.hasTrustDialogAccepted : undefined }
  } catch {
    return { found: undefined }
  }
}

/**
 * `projects["<dir>"].hasTrustDialogAccepted: true` in Claude Code's ~/.claude.json, the file it
 * keeps its own state in: the folder's trust dialog accepted, without which it leaves a project's
 * .mcp.json server pending even when approved. Only that key is touched; an uninstall sets it
 * back to what brain found, and does nothing when brain never wrote the file.
 */
export function claudeTrustTarget(o: TargetOptions): FileTarget {
  const path = claudeTrustFile(o)
  return {
    path,
    holds: 'folder trust',
    edit(text, uninstall, original) {
      const doc = parseJsonConfig(path, text)
      const entry = claudeProject(path, doc.value, o.project)
      const trusted = entry?.hasTrustDialogAccepted === true
      if (!uninstall) {
        if (trusted) return text
        objectAt(path, objectAt(path, doc.value, 'projects'), o.project).hasTrustDialogAccepted = true
        return formatJson(doc)
      }
      if (!trusted || original === undefined) return text
      const { found } = trustFound(path, original, o.project)
      if (found === true) return text
      if (found === undefined) delete entry.hasTrustDialogAccepted
      else entry.hasTrustDialogAccepted = found
      // An entry brain made for the trust alone goes with it.
      if (Object.keys(entry).length === 0) {
        const projects = doc.value.projects as Record<string, unknown>
        delete projects[o.project]
        if (Object.keys(projects).length === 0) delete doc.value.projects
      }
      if (typeof original === 'string' && holdsValue(original, doc.value)) return original
      if (original === null && Object.keys(doc.value).length === 0) return null
      return formatJson(doc)
    },
  }
}

export const CODEX_TRUSTED = 'trust_level = "trusted"'

export function codexTrustFile(o: Pick<TargetOptions, 'dirs'>): string {
  return join(o.dirs.codexHome, 'config.toml')
}

/** `[projects."<dir>"] trust_level = "trusted"` in the user's Codex config. */
export function codexTrustTarget(o: TargetOptions): FileTarget {
  const path = codexTrustFile(o)
  const key = ['projects', o.project]
  const table = `[projects.${tomlString(o.project)}]\n${CODEX_TRUSTED}`
  return {
    path,
    holds: 'project trust',
    edit(text, uninstall) {
      const found = readTomlTable(text, key)
      if (uninstall) {
        // Only the table as brain writes it: trust set by hand, with more in it, stays.
        if (found === null || found.split('\n').slice(1).join('\n').trim() !== CODEX_TRUSTED) return text
      } else {
        if (found !== null && found.includes(CODEX_TRUSTED)) return text
        if (found !== null) {
          throw new ConfigError('agent_config_conflict', `${path} already has [projects."${o.project}"] without ${CODEX_TRUSTED}.`, {
            hint: `Set ${CODEX_TRUSTED} in that table by hand, or trust the project when Codex asks.`,
          })
        }
      }
      const edited = editTomlTable(path, text, key, uninstall ? null : table)
      if (!edited.changed) return text
      return edited.text.trim() === '' ? null : edited.text
    },
  }
}

export function geminiTrustFile(o: Pick<TargetOptions, 'dirs'>): string {
  return join(o.dirs.home, '.gemini', 'trustedFolders.json')
}

/** `{"<dir>": "TRUST_FOLDER"}` in Gemini CLI's trusted folders. */
export function geminiTrustTarget(o: TargetOptions): FileTarget {
  const path = geminiTrustFile(o)
  return {
    path,
    holds: 'folder trust',
    edit(text, uninstall, original) {
      const doc = parseJsonConfig(path, text)
      const trusted = doc.value[o.project] === 'TRUST_FOLDER'
      if (uninstall ? !trusted : trusted) return text
      if (uninstall) delete doc.value[o.project]
      else doc.value[o.project] = 'TRUST_FOLDER'
      if (uninstall && typeof original === 'string' && holdsValue(original, doc.value)) return original
      if (Object.keys(doc.value).length === 0 && isObject(doc.value)) return null
      return formatJson(doc)
    },
  }
}
