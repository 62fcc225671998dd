import { ValidationError } from '../errors/index.js'
import { MARKDOWN_FILE } from './note-files.js'

export const MAX_SLUG_LENGTH = 512

/**
 * Checks and tidies a slug: no leading or trailing slash, no empty, `.` or `..` segments, no
 * control characters or backslashes. Case is kept as given. Accented letters take their composed
 * form (NFC): a file named on macOS spells `é` as `e` and a combining accent, while a keyboard
 * types the one character, and both must name the same page.
 */
export function normalizeSlug(raw: string): string {
  const slug = raw
    .normalize('NFC')
    .trim()
    // A trailing run is tried from its first slash only, so a long run inside the slug costs its
    // length, not its square.
    .replace(/^\/+|(?<!\/)\/+$/g, '')
  const problem =
    slug === ''
      ? 'is empty'
      : slug.length > MAX_SLUG_LENGTH
        ? `is longer than ${MAX_SLUG_LENGTH} characters`
        : /[\u0000-\u001f\u007f\\]/.test(slug)
          ? 'contains a control character or a backslash'
          : slug.split('/').some((s) => s === '' || s === '.' || s === '..')
            ? 'has an empty, "." or ".." segment'
            : null
  if (problem) {
    throw new ValidationError('invalid_slug', `Slug "${raw.slice(0, 80)}" ${problem}.`, {
      hint: 'Use path-like slugs such as notes/2024/idea or people/ada-lovelace.',
    })
  }
  return slug
}

/**
 * Markdown file → slug: the path relative to the source root without `.md`/`.markdown`,
 * lower-cased, whitespace turned into `-`. `People/Ada Lovelace.md` → `people/ada-lovelace`.
 */
export function markdownSlugForPath(relativePath: string): string {
  const withoutExt = relativePath.replace(/\\/g, '/').replace(MARKDOWN_FILE, '')
  return normalizeSlug(withoutExt.toLowerCase().replace(/\s+/g, '-'))
}

/**
 * Code file → slug: the path relative to the source root, extension and case kept, because
 * code paths are case-sensitive and `a.ts` and `a.js` are different files. `src/db/open.ts`
 * → `src/db/open.ts`.
 */
export function codeSlugForPath(relativePath: string): string {
  return normalizeSlug(relativePath.replace(/\\/g, '/'))
}
