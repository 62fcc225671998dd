/**
 * A careful editor for one TOML table (`[mcp_servers.brain]` and its subtables) in a file it
 * otherwise leaves byte for byte: it finds table headers outside strings and multi-line values,
 * replaces, adds or removes the one table, and refuses a file that defines the same server in
 * another form (inline or dotted keys), rather than writing a second definition.
 */
import { ConfigError } from '../errors/index.js'

interface ScannedLine {
  start: number
  end: number
  /** The key path of a table header on this line (`[a.b]` → ['a','b']); null for other lines. */
  header: string[] | null
  text: string
}

/** Splits a header's key on dots outside quotes: `a."b.c".d` → ['a', 'b.c', 'd']. */
function keyPath(raw: string): string[] {
  const parts: string[] = []
  let current = ''
  let quote: string | null = null
  for (const ch of raw) {
    if (quote !== null) {
      if (ch === quote) quote = null
      else current += ch
    } else if (ch === '"' || ch === "'") quote = ch
    else if (ch === '.') {
      parts.push(current.trim())
      current = ''
    } else current += ch
  }
  parts.push(current.trim())
  return parts
}

/** Moves past a value's strings, brackets and comments, tracking what continues onto the next line. */
class ValueState {
  depth = 0
  multiline: '"""' | "'''" | null = null

  scan(line: string): void {
    let i = 0
    while (i < line.length) {
      if (this.multiline !== null) {
        const close = line.indexOf(this.multiline, i)
        if (close === -1) return
        i = close + 3
        this.multiline = null
        continue
      }
      const ch = line[i]!
      if (ch === '#') return
      if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
        this.multiline = line.startsWith('"""', i) ? '"""' : "'''"
        i += 3
        continue
      }
      if (ch === '"' || ch === "'") {
        i++
        while (i < line.length && line[i] !== ch) i += ch === '"' && line[i] === '\\' ? 2 : 1
        i++
        continue
      }
      if (ch === '[' || ch === '{') this.depth++
      else if (ch === ']' || ch === '}') this.depth = Math.max(0, this.depth - 1)
      i++
    }
  }
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/

function scan(text: string): ScannedLine[] {
  const lines: ScannedLine[] = []
  const state = new ValueState()
  let start = 0
  while (start < text.length) {
    const nl = text.indexOf('\n', start)
    const end = nl === -1 ? text.length : nl + 1
    const line = text.slice(start, end).replace(/\r?\n$/, '')
    const free = state.multiline === null && state.depth === 0
    const match = free ? HEADER.exec(line) : null
    lines.push({ start, end, header: match ? keyPath(match[1]!) : null, text: line })
    if (!match) state.scan(line)
    start = end
  }
  return lines
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((p, i) => path[i] === p)
}

/** Line ranges [from, to) of the table at `path` and its subtables, each up to its last non-blank line. */
function ownedRanges(lines: ScannedLine[], path: readonly string[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i]!.header
    if (header === null || !startsWith(header, path)) continue
    let next = i + 1
    while (next < lines.length && lines[next]!.header === null) next++
    let last = next - 1
    while (last > i && lines[last]!.text.trim() === '') last--
    ranges.push([i, last + 1])
    i = next - 1
  }
  return ranges
}

/** A definition of the same table in a form this editor does not own (inline table, dotted keys). */
function otherForm(lines: ScannedLine[], path: readonly string[]): number | null {
  let table: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.header !== null) {
      table = line.header
      continue
    }
    const key = /^\s*([A-Za-z0-9_\-."' ]+?)\s*=/.exec(line.text)?.[1]
    if (key === undefined || startsWith(table, path)) continue
    const full = [...table, ...keyPath(key)]
    if (startsWith(full, path) || (full.length < path.length && startsWith(path, full) && /=\s*\{/.test(line.text))) return i + 1
  }
  return null
}

interface TomlEdit {
  /** The file's new text; the same string when nothing changed. */
  text: string
  changed: boolean
}

/**
 * Puts `table` (the full text of the table, header first) in place of the one at `path`, or
 * removes it when `table` is null. Everything else in the file stays as it was.
 */
export function editTomlTable(file: string, text: string | null, path: readonly string[], table: string | null): TomlEdit {
  const source = text ?? ''
  const lines = scan(source)
  const conflict = otherForm(lines, path)
  if (conflict !== null) {
    throw new ConfigError('agent_config_conflict', `${file}:${conflict} defines [${path.join('.')}] in a form brain does not edit (an inline table or dotted keys).`, {
      hint: `Remove that definition, or keep it and skip this install.`,
    })
  }
  const ranges = ownedRanges(lines, path)
  let out: string
  if (ranges.length === 0) {
    if (table === null) return { text: source, changed: false }
    const base = source === '' || source.endsWith('\n') ? source : `${source}\n`
    const gap = base === '' || base.endsWith('\n\n') ? '' : '\n'
    out = `${base}${gap}${table.endsWith('\n') ? table : `${table}\n`}`
  } else {
    const pieces: string[] = []
    let cursor = 0
    ranges.forEach(([from, to], n) => {
      let cut = lines[from]!.start
      const after = to < lines.length ? lines[to]!.start : source.length
      const endsFile = after >= source.length || lines.slice(to).every((l) => l.text.trim() === '')
      // A removal at the end of the file takes the blank line that separated it with it.
      if ((table === null || n > 0) && endsFile && from > 0 && lines[from - 1]!.text.trim() === '') cut = lines[from - 1]!.start
      pieces.push(source.slice(cursor, cut))
      if (n === 0 && table !== null) pieces.push(table.endsWith('\n') ? table : `${table}\n`)
      const blankAround = from > 0 && lines[from - 1]!.text.trim() === '' && to < lines.length && lines[to]!.text.trim() === ''
      const dropped = table === null || n > 0
      cursor = dropped && endsFile ? source.length : dropped && blankAround ? lines[to]!.end : after
    })
    pieces.push(source.slice(cursor))
    out = pieces.join('')
  }
  return { text: out, changed: out !== source }
}

/** A TOML basic string: JSON's escapes are TOML's. */
export function tomlString(value: string): string {
  return JSON.stringify(value)
}

/** The text of the table at `path` (its own lines, not its subtables'), or null when there is none. */
export function readTomlTable(text: string | null, path: readonly string[]): string | null {
  const lines = scan(text ?? '')
  const at = lines.findIndex((l) => l.header !== null && l.header.length === path.length && startsWith(l.header, path))
  if (at === -1) return null
  let end = at + 1
  while (end < lines.length && lines[end]!.header === null) end++
  return lines
    .slice(at, end)
    .map((l) => l.text)
    .join('\n')
    .trimEnd()
}

/** A one-line string or array value of a key in a table's text (`command = "x"`, `args = ["a"]`), parsed as JSON. */
export function tomlValue(table: string, key: string): unknown {
  const raw = new RegExp(`^\\s*${key}\\s*=\\s*(.+?)\\s*$`, 'm').exec(table)?.[1]
  if (raw === undefined) return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}
