/**
 * Hostile inputs shared by the fault tests: built here so each test says what it feeds in.
 */

/** Nested YAML aliases ("billion laughs"): a few hundred bytes that expand to 9^9 values. */
export function aliasBomb(levels = 9, fanOut = 9): string {
  const names = 'abcdefghijklmnopqrstuvwxyz'
  const lines = [`a: &a [${Array.from({ length: fanOut }, () => '"x"').join(',')}]`]
  for (let i = 1; i < levels; i++) {
    const prev = names[i - 1]!
    lines.push(`${names[i]!}: &${names[i]!} [${Array.from({ length: fanOut }, () => `*${prev}`).join(',')}]`)
  }
  return `---\n${lines.join('\n')}\n---\n# Bomb\n\nA page whose front matter must be refused.\n`
}
