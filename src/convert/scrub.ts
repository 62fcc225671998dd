/**
 * Secret scrubbing for chat exports and agent transcripts, applied before anything is stored.
 * Each pattern names what it replaces so that the page shows `[redacted:<name>]`.
 */
export const SECRET_PATTERNS: ReadonlyArray<{ name: string; re: RegExp }> = [
  { name: 'private-key', re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { name: 'aws-access-key', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  { name: 'openai-key', re: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/g },
  { name: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { name: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g },
  { name: 'bearer', re: /\b(Bearer\s+)[A-Za-z0-9._~+/-]{20,}=*/g },
  { name: 'url-password', re: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(@)/gi },
  {
    name: 'assignment',
    re: /\b((?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\s*[:=]\s*["']?)[^\s"']{6,}/gi,
  },
]

interface ScrubResult {
  text: string
  count: number
}

export function scrubSecrets(text: string): ScrubResult {
  let count = 0
  let out = text
  for (const { name, re } of SECRET_PATTERNS) {
    out = out.replace(re, (...args: unknown[]) => {
      count++
      const groups = args.slice(1, -2).filter((g): g is string => typeof g === 'string')
      // Patterns with capture groups keep their prefix (and suffix) so the text still reads.
      if (groups.length === 2) return `${groups[0]}[redacted:${name}]${groups[1]}`
      if (groups.length === 1) return `${groups[0]}[redacted:${name}]`
      return `[redacted:${name}]`
    })
  }
  return { text: out, count }
}
