// Draws the floors of the code from the folder table of eslint/folders.js, so that the drawing in
// docs/architecture.md is made from the same declaration the linter enforces. Within a layer, a
// folder stands one floor above the highest folder of that layer it may import; a folder that
// imports nothing of its own layer stands on floor 0. The composition root ('*') may import every
// other folder, so it stands above the rest of its layer. Prints the drawing; with --write it
// replaces the drawing between the markers of docs/architecture.md instead.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { FOLDERS, LAYERS } from '../eslint/folders.js'

const defaultRoot = join(dirname(fileURLToPath(import.meta.url)), '..')

export const DRAWING_START = '<!-- The drawing below is made by scripts/draw-architecture.mjs from eslint/folders.js. -->'
export const DRAWING_END = '<!-- End of the drawing. -->'

const WIDTH = 100
const LAYER_NAMES = { surface: 'surfaces', transport: 'transports', operations: 'operations', capability: 'capabilities', foundation: 'foundation' }

/** Each folder's floor within its layer. */
export function floors(folders = FOLDERS) {
  const floor = new Map()
  const sameLayer = (name) => {
    const rule = folders[name]
    const peers = Object.keys(folders).filter((other) => other !== name && folders[other].layer === rule.layer)
    return rule.imports === '*' ? peers : rule.imports.filter((to) => peers.includes(to))
  }
  const visit = (name, path) => {
    if (floor.has(name)) return floor.get(name)
    if (path.includes(name)) throw new Error(`eslint/folders.js: a cycle within the ${folders[name].layer} layer: ${[...path, name].join(' → ')}`)
    const below = sameLayer(name).map((to) => visit(to, [...path, name]))
    const at = below.length === 0 ? 0 : Math.max(...below) + 1
    floor.set(name, at)
    return at
  }
  for (const name of Object.keys(folders)) visit(name, [])
  return floor
}

const label = (name) => (name === 'src' ? 'src (the package root)' : name)

/** Folder names laid out after `prefix`, wrapped under it at WIDTH. */
function wrapped(prefix, names) {
  const lines = []
  let line = prefix
  for (const name of names) {
    if (line.length > prefix.length && line.length + 2 + name.length > WIDTH) {
      lines.push(line.trimEnd())
      line = ' '.repeat(prefix.length)
    }
    line += line.length === prefix.length ? name : `  ${name}`
  }
  lines.push(line.trimEnd())
  return lines
}

/** The drawing: the layers from the top, each layer's floors from its highest. */
export function drawArchitecture(folders = FOLDERS) {
  const floor = floors(folders)
  const out = []
  for (const layer of LAYERS) {
    const names = Object.keys(folders).filter((name) => folders[name].layer === layer)
    const top = Math.max(...names.map((name) => floor.get(name)))
    for (let at = top; at >= 0; at--) {
      const here = names
        .filter((name) => floor.get(name) === at)
        .sort()
        .map(label)
      const head = `${at === top ? LAYER_NAMES[layer] : ''}`.padEnd(14) + `${at}`.padStart(2) + '  '
      out.push(...wrapped(head, here))
    }
    if (layer !== LAYERS[LAYERS.length - 1]) out.push('')
  }
  return out.join('\n')
}

/** The drawing as docs/architecture.md holds it, between its markers. */
export function drawingBlock(folders = FOLDERS) {
  return `${DRAWING_START}\n\n\`\`\`\n${drawArchitecture(folders)}\n\`\`\`\n\n${DRAWING_END}`
}

/** The drawing docs/architecture.md holds now, markers included, or undefined without markers. */
export function documentDrawing(text) {
  const start = text.indexOf(DRAWING_START)
  const end = text.indexOf(DRAWING_END)
  if (start < 0 || end < start) return undefined
  return text.slice(start, end + DRAWING_END.length)
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--write')) {
    const path = join(defaultRoot, 'docs', 'architecture.md')
    const text = readFileSync(path, 'utf8')
    const current = documentDrawing(text)
    if (current === undefined) {
      process.stderr.write(`docs/architecture.md has no drawing markers (${DRAWING_START} … ${DRAWING_END})\n`)
      process.exit(1)
    }
    writeFileSync(path, text.replace(current, drawingBlock()))
  } else process.stdout.write(`${drawArchitecture()}\n`)
}
