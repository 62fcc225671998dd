/**
 * Jupyter notebooks (`.ipynb`, nbformat 4 and the older 3) → one page draft: markdown cells as
 * written, code cells as fenced code in the kernel's language, each followed by the text it
 * printed. Nothing in a notebook is run, and of a rich output (HTML, scripts, pictures) only its
 * plain-text form is kept, bounded, so a plotted cell does not bury the page in base64.
 */
import { ConvertError } from './errors.js'
import { fencedCode } from './render.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

/** The text kept of one code cell's outputs; a long training log keeps its first lines. */
const MAX_OUTPUT_CHARS = 2000

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

/** A notebook's multi-line text: one string, or the list of lines Jupyter writes. */
function text(value: unknown): string {
  if (typeof value === 'string') return value
  return Array.isArray(value) ? value.filter((line): line is string => typeof line === 'string').join('') : ''
}

/** Terminal colour codes, which tracebacks are full of. */
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g

/** What a code cell printed or returned, as plain text. */
function outputText(output: Json): string {
  switch (output.output_type) {
    case 'stream':
      return text(output.text)
    case 'execute_result':
    case 'display_data':
    case 'pyout':
      return isObject(output.data) ? text(output.data['text/plain']) : text(output.text)
    case 'error':
    case 'pyerr':
      return `${text(output.ename)}: ${text(output.evalue)}`
    default:
      return ''
  }
}

function outputsOf(cell: Json): string {
  const outputs = Array.isArray(cell.outputs) ? cell.outputs.filter(isObject) : []
  const all = outputs
    .map(outputText)
    .map((t) => t.replace(ANSI_ESCAPE, '').replace(/\s+$/, ''))
    .filter((t) => t !== '')
    .join('\n')
  if (all.length <= MAX_OUTPUT_CHARS) return all
  const lineEnd = all.lastIndexOf('\n', MAX_OUTPUT_CHARS)
  const end = lineEnd > MAX_OUTPUT_CHARS / 2 ? lineEnd : MAX_OUTPUT_CHARS
  return `${all.slice(0, end)}\n… (${all.length - end} more characters of output)`
}

/** One cell as markdown; '' for a cell with nothing in it. */
function cellMarkdown(cell: Json, language: string): string {
  const source = text(cell.source ?? cell.input).trim()
  switch (cell.cell_type) {
    case 'markdown':
      return source
    case 'heading':
      return source === '' ? '' : `${'#'.repeat(Math.min(6, Math.max(1, Number(cell.level) || 1)))} ${source}`
    case 'raw':
      return source === '' ? '' : fencedCode(source, '')
    case 'code': {
      const printed = outputsOf(cell)
      const parts = [source === '' ? '' : fencedCode(source, typeof cell.language === 'string' ? cell.language : language), printed === '' ? '' : fencedCode(printed, 'output')]
      return parts.filter((p) => p !== '').join('\n\n')
    }
    default:
      return ''
  }
}

/** The cells of either format: nbformat 4 lists them, nbformat 3 keeps them in worksheets. */
function cellsOf(notebook: Json): Json[] | null {
  if (Array.isArray(notebook.cells)) return notebook.cells.filter(isObject)
  if (Array.isArray(notebook.worksheets)) return notebook.worksheets.filter(isObject).flatMap((sheet) => (Array.isArray(sheet.cells) ? sheet.cells.filter(isObject) : []))
  return null
}

function kernelLanguage(metadata: Json): string {
  for (const value of [isObject(metadata.kernelspec) ? metadata.kernelspec.language : undefined, isObject(metadata.language_info) ? metadata.language_info.name : undefined, metadata.language]) {
    if (typeof value === 'string' && /^[\w+#.-]{1,40}$/.test(value)) return value.toLowerCase()
  }
  return ''
}

export function convertNotebook(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'ipynb'> {
  let notebook: unknown
  try {
    notebook = JSON.parse(new TextDecoder('utf-8').decode(input.bytes))
  } catch (err) {
    throw new ConvertError('convert_corrupt', `${input.name}: not a readable notebook (${err instanceof Error ? err.message : String(err)})`)
  }
  const cells = isObject(notebook) ? cellsOf(notebook) : null
  if (!isObject(notebook) || cells === null) throw new ConvertError('convert_unsupported', `${input.name}: not a Jupyter notebook (no cells)`)
  const metadata = isObject(notebook.metadata) ? notebook.metadata : {}
  const language = kernelLanguage(metadata)
  let body = cells
    .map((cell) => cellMarkdown(cell, language))
    .filter((part) => part !== '')
    .join('\n\n')
  if (body === '') throw new ConvertError('convert_unsupported', `${input.name}: the notebook has no text`)
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.ipynb$/i, '')
  const lead = /^# (.+)\n*/.exec(body)
  const title = lead ? lead[1]!.trim() : typeof metadata.title === 'string' && metadata.title.trim() !== '' ? metadata.title.trim() : fileTitle
  if (lead) body = body.slice(lead[0].length)
  const frontmatter: Json = { type: 'notebook', source_format: 'ipynb' }
  if (language !== '') frontmatter.language = language
  return { format: 'ipynb', drafts: [{ slugHint: fileTitle.toLowerCase(), title, frontmatter, body: `# ${title}\n\n${body}\n` }], counts: {} }
}
