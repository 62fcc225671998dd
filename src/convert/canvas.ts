/**
 * Obsidian canvases (`.canvas`, the JSON Canvas format) → one page of type `canvas`: its cards in
 * reading order (top to bottom, then left to right), the cards outside any group first, then each
 * group a section headed by its label (groups inside it one level down); a note or file card as
 * an embed (`![[path]]`, so the canvas links to what it shows), a web card as a link, and the
 * arrows between cards as a list of connections.
 */
import { ConvertError } from './errors.js'
import { isObj, objects, parseJson, str, type JsonObject } from './json-values.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

/** More cards than anyone draws; a hostile file cannot make the page unbounded. */
const MAX_NODES = 20_000
/** Past this many groups, which group holds a card is not worked out (it costs cards × groups). */
const MAX_GROUPS = 2_000
/** How much of a text card names it in a connection. */
const NAME_LENGTH = 60

interface Card {
  id: string
  type: string
  node: JsonObject
  x: number
  y: number
  width: number
  height: number
  /** The smallest group that holds this card's centre, by index into the cards. */
  parent?: number
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

function cardOf(node: JsonObject): Card | undefined {
  const id = str(node.id)
  const type = str(node.type)
  if (id === undefined || type === undefined) return undefined
  return { id, type, node, x: num(node.x), y: num(node.y), width: Math.max(0, num(node.width)), height: Math.max(0, num(node.height)) }
}

const area = (c: Card): number => c.width * c.height

function holds(group: Card, c: Card): boolean {
  const cx = c.x + c.width / 2
  const cy = c.y + c.height / 2
  return cx >= group.x && cx <= group.x + group.width && cy >= group.y && cy <= group.y + group.height
}

/**
 * Gives each card the smallest group holding its centre. A group's own parent must be strictly
 * larger (or as large and listed earlier), so nesting can never loop.
 */
function assignGroups(cards: Card[]): void {
  const groups = cards.map((c, i) => [c, i] as const).filter(([c]) => c.type === 'group')
  if (groups.length === 0 || groups.length > MAX_GROUPS) return
  cards.forEach((card, ci) => {
    let best: number | undefined
    for (const [group, gi] of groups) {
      if (gi === ci || !holds(group, card)) continue
      if (card.type === 'group' && (area(group) < area(card) || (area(group) === area(card) && gi > ci))) continue
      // Of groups alike, the one listed last is the innermost (see above).
      if (best === undefined || area(group) <= area(cards[best]!)) best = gi
    }
    card.parent = best
  })
}

const byReadingOrder = (a: Card, b: Card): number => a.y - b.y || a.x - b.x

/** A path as an Obsidian link target, or undefined when it cannot be written as one. */
function linkTarget(path: string, subpath: string | undefined): string | undefined {
  if (path === '' || /[[\]|\n]/.test(path)) return undefined
  const anchor = subpath !== undefined && /^#[^[\]|\n]+$/.test(subpath) ? subpath : ''
  return `${path}${anchor}`
}

function cardBody(card: Card): string {
  switch (card.type) {
    case 'text':
      return (str(card.node.text) ?? '').trim()
    case 'file': {
      const path = str(card.node.file) ?? ''
      const target = linkTarget(path, str(card.node.subpath))
      return target === undefined ? `(file: ${path})` : `![[${target}]]`
    }
    case 'link': {
      const url = str(card.node.url) ?? ''
      return /^https?:\/\/[^\s<>]+$/i.test(url) ? `<${url}>` : url
    }
    default:
      return ''
  }
}

/** How a connection names a card: a file's name, a link, a group's label or a text's first line. */
function cardName(card: Card): string {
  switch (card.type) {
    case 'file': {
      const path = str(card.node.file) ?? ''
      return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '') || 'file'
    }
    case 'link':
      return str(card.node.url) ?? 'link'
    case 'group':
      return str(card.node.label)?.trim() || 'group'
    default: {
      const line = (str(card.node.text) ?? '').split('\n').find((l) => l.trim() !== '') ?? ''
      const plain = line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*)/, '').trim()
      return plain.length > NAME_LENGTH ? `${plain.slice(0, NAME_LENGTH - 1)}…` : plain || 'card'
    }
  }
}

function connectionLine(edge: JsonObject, cards: ReadonlyMap<string, Card>): string | undefined {
  const from = cards.get(str(edge.fromNode) ?? '')
  const to = cards.get(str(edge.toNode) ?? '')
  if (from === undefined || to === undefined) return undefined
  const forward = (str(edge.toEnd) ?? 'arrow') === 'arrow'
  const backward = str(edge.fromEnd) === 'arrow'
  const arrow = forward && backward ? '↔' : forward ? '→' : backward ? '←' : '—'
  const label = str(edge.label)?.replace(/\s+/g, ' ').trim()
  return `- ${cardName(from)} ${arrow} ${cardName(to)}${label ? `: ${label}` : ''}`
}

/**
 * The cards under one group (or at the top), then its groups as headed sections one level down:
 * a card after a group's heading would read as part of that group.
 */
function section(cards: readonly Card[], children: ReadonlyMap<number | undefined, number[]>, parent: number | undefined, level: number): string[] {
  const members = children.get(parent) ?? []
  const parts = members
    .filter((i) => cards[i]!.type !== 'group')
    .map((i) => cardBody(cards[i]!))
    .filter((body) => body !== '')
  for (const i of members.filter((m) => cards[m]!.type === 'group')) {
    const card = cards[i]!
    const label = str(card.node.label)?.replace(/\s+/g, ' ').trim()
    if (label) parts.push(`${'#'.repeat(Math.min(level, 6))} ${label}`)
    parts.push(...section(cards, children, i, level + 1))
  }
  return parts
}

export function convertCanvas(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'canvas'> {
  const canvas = parseJson(input.bytes, input.name)
  if (!isObj(canvas) || (canvas.nodes !== undefined && !Array.isArray(canvas.nodes)) || (canvas.edges !== undefined && !Array.isArray(canvas.edges))) {
    throw new ConvertError('convert_unsupported', `${input.name}: not a JSON Canvas file`)
  }
  const nodes = objects(canvas.nodes)
  if (nodes.length > MAX_NODES) throw new ConvertError('convert_too_large', `${input.name}: ${nodes.length} cards exceed ${MAX_NODES}`)
  const cards = nodes.map(cardOf).filter((c): c is Card => c !== undefined)
  assignGroups(cards)
  const children = new Map<number | undefined, number[]>()
  const order = cards.map((_, i) => i).sort((a, b) => byReadingOrder(cards[a]!, cards[b]!))
  for (const i of order) {
    const siblings = children.get(cards[i]!.parent)
    if (siblings === undefined) children.set(cards[i]!.parent, [i])
    else siblings.push(i)
  }
  const byId = new Map(cards.map((c) => [c.id, c]))
  const connections = objects(canvas.edges)
    .map((e) => connectionLine(e, byId))
    .filter((l): l is string => l !== undefined)
  const base = input.name.slice(input.name.lastIndexOf('/') + 1)
  const title = base.replace(/\.canvas$/i, '') || 'Canvas'
  const parts = section(cards, children, undefined, 2)
  if (connections.length > 0) parts.push('## Connections', connections.join('\n'))
  const body = [`# ${title}`, ...parts].join('\n\n')
  return {
    format: 'canvas',
    drafts: [{ slugHint: title.toLowerCase(), title, frontmatter: { type: 'canvas' }, body: `${body}\n` }],
    counts: { cards: cards.filter((c) => c.type !== 'group').length, connections: connections.length },
  }
}
