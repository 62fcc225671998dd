/**
 * The hooks shape Claude Code, Gemini CLI and Codex share:
 * `hooks.<Event>: [{matcher?, hooks: [{type: "command", command, timeout}]}]`, and Cursor's flat
 * one: `{version: 1, hooks: {<event>: [{command}]}}`. Brain's hooks are found by their marker,
 * replaced in place, and other tools' hooks stay where they were.
 */
import { ConfigError } from '../errors/index.js'
import { isBrainHook } from './entries.js'
import { hookEvents } from './hook-events.js'
import { dropIfEmpty, isObject, objectAt } from './json-config.js'

export interface HookSetting {
  harness: string
  /** The command line for one of brain's event words. */
  command: (event: string) => string
  /** In the agent's unit: seconds for Claude Code and Codex, milliseconds for Gemini CLI. */
  timeout: number
}

const isOurs = (hook: unknown, harness: string): boolean => isObject(hook) && isBrainHook(hook.command, harness)

/** Sets brain's hooks (or removes them: `setting` null) for `harness` in the object's `hooks`. */
export function setHooks(path: string, value: Record<string, unknown>, harness: string, setting: HookSetting | null): void {
  const hooks = objectAt(path, value, 'hooks')
  const wanted = new Map(hookEvents(harness).map((e) => [e.eventName, e.event]))
  for (const eventName of new Set([...Object.keys(hooks), ...wanted.keys()])) {
    const event = setting === null ? undefined : wanted.get(eventName)
    const groups = hooks[eventName] ?? []
    if (!Array.isArray(groups)) throw new ConfigError('agent_config_unreadable', `${path}: hooks.${eventName} is not a list.`, { hint: 'Fix the file, then run the install again.' })
    const entry = event === undefined || setting === null ? null : { type: 'command', command: setting.command(event), timeout: setting.timeout }
    let placed = false
    const kept = groups.flatMap((group: unknown) => {
      if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some((h) => isOurs(h, harness))) return [group]
      const inner = group.hooks.flatMap((h: unknown) => {
        if (!isOurs(h, harness)) return [h]
        if (entry === null || placed) return []
        placed = true
        return [entry]
      })
      return inner.length === 0 ? [] : [{ ...group, hooks: inner }]
    })
    if (entry !== null && !placed) kept.push({ hooks: [entry] })
    if (kept.length > 0) hooks[eventName] = kept
    else delete hooks[eventName]
  }
  dropIfEmpty(value, 'hooks')
}

/** Cursor's hooks file version this shape is written in. */
const CURSOR_HOOKS_VERSION = 1

/**
 * Sets brain's hooks (or removes them: `setting` null) in a Cursor hooks file, whose events hold
 * plain lists of `{command}` entries. A file without a version gets Cursor's; the version is left
 * for the uninstall to take back with the file's original bytes.
 */
export function setFlatHooks(path: string, value: Record<string, unknown>, harness: string, setting: Pick<HookSetting, 'command'> | null): void {
  if (setting !== null && value.version === undefined) value.version = CURSOR_HOOKS_VERSION
  const hooks = objectAt(path, value, 'hooks')
  const wanted = new Map(hookEvents(harness).map((e) => [e.eventName, e.event]))
  for (const eventName of new Set([...Object.keys(hooks), ...wanted.keys()])) {
    const event = setting === null ? undefined : wanted.get(eventName)
    const entries = hooks[eventName] ?? []
    if (!Array.isArray(entries)) throw new ConfigError('agent_config_unreadable', `${path}: hooks.${eventName} is not a list.`, { hint: 'Fix the file, then run the install again.' })
    const entry = event === undefined || setting === null ? null : { command: setting.command(event) }
    let placed = false
    const kept = entries.flatMap((h: unknown) => {
      if (!isOurs(h, harness)) return [h]
      if (entry === null || placed) return []
      placed = true
      return [entry]
    })
    if (entry !== null && !placed) kept.push(entry)
    if (kept.length > 0) hooks[eventName] = kept
    else delete hooks[eventName]
  }
  dropIfEmpty(value, 'hooks')
}
