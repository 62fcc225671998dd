import { parseYamlBlock } from '../util/index.js'

type YamlOutcome = { ok: true; data: unknown } | { ok: false; reason: string; /** 0-based line inside the YAML text, when the parser says. */ line: number | null }

interface YamlErrorShape {
  reason?: unknown
  mark?: { line?: unknown }
}

/** Parses the lines between the delimiters with the bounded, YAML-only front-matter reader. */
export function parseYaml(yamlLines: readonly string[]): YamlOutcome {
  try {
    return { ok: true, data: parseYamlBlock(yamlLines.join('\n')) }
  } catch (err) {
    const shape = (err ?? {}) as YamlErrorShape
    const markLine = typeof shape.mark?.line === 'number' ? shape.mark.line : null
    const reason = typeof shape.reason === 'string' ? shape.reason : err instanceof Error ? err.message : String(err)
    return { ok: false, reason, line: markLine === null ? null : Math.max(0, Math.min(markLine, yamlLines.length - 1)) }
  }
}
