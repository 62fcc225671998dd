import matter from 'gray-matter'

function refuseCode(): never {
  throw new Error('executable front matter is refused')
}

/** YAML only: gray-matter would otherwise evaluate `---js` blocks, and brain never runs page content. */
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: { js: refuseCode, javascript: refuseCode, coffee: refuseCode, coffeescript: refuseCode },
} as const

export type YamlOutcome =
  | { ok: true; data: unknown }
  | { ok: false; reason: string; /** 0-based line inside the YAML text, when the parser says. */ line: number | null }

interface YamlErrorShape {
  reason?: unknown
  mark?: { line?: unknown }
}

/** Parses the lines between the delimiters; never mutates what gray-matter returns (it caches). */
export function parseYaml(yamlLines: readonly string[]): YamlOutcome {
  try {
    const result = matter(`---\n${yamlLines.join('\n')}\n---\n`, MATTER_OPTIONS)
    return { ok: true, data: result.data }
  } catch (err) {
    const shape = (err ?? {}) as YamlErrorShape
    const markLine = typeof shape.mark?.line === 'number' ? shape.mark.line : null
    const reason = typeof shape.reason === 'string' ? shape.reason : err instanceof Error ? err.message : String(err)
    // The parser sees a leading newline (the rest of the opening line), so its line 1 is YAML line 0.
    return { ok: false, reason, line: markLine === null ? null : Math.max(0, Math.min(markLine - 1, yamlLines.length - 1)) }
  }
}
