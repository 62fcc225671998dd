/**
 * The trust or approval a client needs before it uses brain's entries in a project's shared
 * files, written only with `--trust`: Claude Code's approval of the project's MCP server, Codex's
 * trusted project, Gemini CLI's trusted folder.
 */
import { join } from 'node:path'
import { ConfigError } from '../errors/index.js'
import { SERVER_NAME, type FileTarget, type TargetOptions } from './entries.js'
import { formatJson, isObject, parseJsonConfig } from './json-config.js'
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
      if (uninstall && typeof original === 'string' && JSON.stringify(JSON.parse(original)) === JSON.stringify(doc.value)) return original
      if (Object.keys(doc.value).length === 0 && isObject(doc.value)) return null
      return formatJson(doc)
    },
  }
}
