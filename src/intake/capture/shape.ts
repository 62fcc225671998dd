import { createHash } from 'node:crypto'

export const MAX_CAPTURE_TITLE = 80
export const DEFAULT_CAPTURE_TYPE = 'capture'

export function contentDigest(content: string): string {
  return createHash('sha256').update(content).digest('hex')
}

/** `inbox/<YYYY-MM-DD>-<hash8>`: UTC date and the content's hash, so the same content maps to one slug. */
export function defaultCaptureSlug(content: string, now: Date): string {
  return `inbox/${now.toISOString().slice(0, 10)}-${contentDigest(content).slice(0, 8)}`
}

/** Content that already starts with a heading or front matter is the author's own structure. */
export function isStructured(content: string): boolean {
  const firstLine = content
    .replace(/^\uFEFF/, '')
    .split('\n', 1)[0]!
    .trimEnd()
  return firstLine === '---' || /^#{1,6}\s/.test(firstLine)
}

export function captureTitle(content: string): string {
  const firstLine =
    content
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? 'Capture'
  const collapsed = firstLine.replace(/\s+/g, ' ')
  return collapsed.length <= MAX_CAPTURE_TITLE ? collapsed : `${collapsed.slice(0, MAX_CAPTURE_TITLE - 1).trimEnd()}…`
}

function yamlString(value: string): string {
  return JSON.stringify(value)
}

interface ShapeOptions {
  type?: string
  capturedVia: string
  now: Date
}

/**
 * Wraps unstructured prose in front matter (type, title, captured_via, captured_at) and a
 * `# <title>` heading; structured content passes through unchanged.
 */
export function shapeCapture(content: string, options: ShapeOptions): { markdown: string; wrapped: boolean; title: string } {
  const text = content.replace(/\r\n/g, '\n').trim()
  if (isStructured(text)) return { markdown: `${text}\n`, wrapped: false, title: captureTitle(text.replace(/^#+\s*/, '')) }
  const title = captureTitle(text)
  const frontmatter = [
    '---',
    `type: ${yamlString(options.type ?? DEFAULT_CAPTURE_TYPE)}`,
    `title: ${yamlString(title)}`,
    `captured_via: ${yamlString(options.capturedVia)}`,
    `captured_at: ${yamlString(options.now.toISOString())}`,
    '---',
  ].join('\n')
  return { markdown: `${frontmatter}\n# ${title}\n\n${text}\n`, wrapped: true, title }
}
