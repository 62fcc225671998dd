/**
 * Markup, style and data languages: CSS, HTML, Vue, JSON, YAML, TOML.
 *
 * Their "symbols" are what a reader navigates by: selectors and at-rules, elements
 * (tag plus #id), single-file-component blocks, keys and tables.
 */
import type { Node } from 'web-tree-sitter'
import { cleanName, unquote } from '../syntax.js'
import { tableRules } from './table.js'
import type { DefMatch, LanguageRules } from './types.js'

function cssRule(node: Node): DefMatch {
  const selectors = node.namedChildren.find((c) => c.type === 'selectors')
  return { name: cleanName(selectors?.text ?? ''), type: 'rule', body: node }
}

/** `@media (max-width: 600px) { ... }` is named by its prelude. */
function cssAtRule(type: string) {
  return (node: Node): DefMatch => {
    const text = node.text
    const brace = text.indexOf('{')
    return { name: cleanName(brace < 0 ? text : text.slice(0, brace)), type, body: node }
  }
}

function cssKeyframes(node: Node): DefMatch {
  const name = node.namedChildren.find((c) => c.type === 'keyframes_name')
  return { name: cleanName(name?.text ?? ''), type: 'keyframes', body: node }
}

export const cssRules: LanguageRules = tableRules({
  defs: {
    rule_set: cssRule,
    media_statement: cssAtRule('media'),
    supports_statement: cssAtRule('at-rule'),
    at_rule: cssAtRule('at-rule'),
    keyframes_statement: cssKeyframes,
  },
})

/** `div#app` for `<div id="app">`, else the tag name alone. */
function elementName(node: Node): string | null {
  const start = node.namedChildren.find((c) => c.type === 'start_tag' || c.type === 'self_closing_tag')
  if (start === undefined) return null
  const tag = start.namedChildren.find((c) => c.type === 'tag_name')?.text ?? null
  if (tag === null) return null
  for (const attribute of start.namedChildren) {
    if (attribute.type !== 'attribute') continue
    const name = attribute.namedChildren.find((c) => c.type === 'attribute_name')?.text
    if (name?.toLowerCase() !== 'id') continue
    const value = attribute.namedChildren.find((c) => c.type !== 'attribute_name')
    const id = value === undefined ? '' : unquote(value.text)
    if (id !== '') return cleanName(`${tag}#${id}`)
  }
  return cleanName(tag)
}

function element(node: Node): DefMatch {
  return { name: elementName(node), type: 'element', body: node }
}

export const htmlRules: LanguageRules = tableRules({
  defs: { element, script_element: element, style_element: element },
})

export const vueRules: LanguageRules = tableRules({
  defs: { element, template_element: element, script_element: element, style_element: element },
})

function keyDef(keyField: string) {
  return (node: Node): DefMatch => {
    const key = node.childForFieldName(keyField) ?? node.namedChildren[0] ?? null
    return { name: key === null ? null : cleanName(unquote(key.text)), type: 'key', body: node }
  }
}

export const jsonRules: LanguageRules = tableRules({
  defs: { pair: keyDef('key') },
  transparent: ['document', 'object'],
})

export const yamlRules: LanguageRules = tableRules({
  defs: { block_mapping_pair: keyDef('key'), flow_pair: keyDef('key') },
  transparent: ['stream', 'document', 'block_node', 'block_mapping', 'flow_node', 'flow_mapping'],
})

function tomlTable(node: Node): DefMatch {
  const key = node.namedChildren[0]
  return { name: key === undefined ? null : cleanName(key.text), type: 'table', body: node }
}

export const tomlRules: LanguageRules = tableRules({
  defs: { pair: keyDef('key'), table: tomlTable, table_array_element: tomlTable },
})
