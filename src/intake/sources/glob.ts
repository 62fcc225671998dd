/**
 * Glob matching for include/exclude rules: `**\/` matches zero or more directories, `**` any
 * characters, `*` any characters except `/`, `?` one character except `/`. A pattern without a
 * slash matches the file name at any depth (like .gitignore).
 */
export function globToRegExp(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '*' && pattern[i + 1] === '*') {
      if (pattern[i + 2] === '/') {
        source += '(?:.*/)?'
        i += 2
      } else {
        source += '.*'
        i += 1
      }
    } else if (c === '*') source += '[^/]*'
    else if (c === '?') source += '[^/]'
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

export interface GlobSet {
  matches(relativePath: string): boolean
  readonly empty: boolean
}

export function compileGlobs(patterns: readonly string[]): GlobSet {
  const compiled = patterns
    .map((p) => p.trim().replace(/^\.\//, ''))
    .filter((p) => p !== '')
    .map((p) => (p.endsWith('/') ? `${p}**` : p))
    .map((p) => ({ regex: globToRegExp(p), basenameOnly: !p.includes('/') }))
  return {
    empty: compiled.length === 0,
    matches(relativePath: string): boolean {
      const base = relativePath.slice(relativePath.lastIndexOf('/') + 1)
      return compiled.some(({ regex, basenameOnly }) => regex.test(relativePath) || (basenameOnly && regex.test(base)))
    },
  }
}
