/**
 * A title as one slug segment: lower-cased, Latin letters without their accents (`Résumé` →
 * `resume`), the letters and digits of every other script kept as written (a subject in Chinese
 * names its page, not `untitled`), anything else one `-`. At most `max` characters, never cut
 * inside a character; `untitled` when nothing is left.
 */
export function slugWords(title: string, max: number): string {
  const folded = title
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
  const dashed = folded.replace(/[^\p{L}\p{M}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '')
  // A cut that ends in `-` keeps it: pages named before keep their slugs.
  return Array.from(dashed).slice(0, max).join('') || 'untitled'
}

/** `base`, or `base-2`, `base-3`, … when the ones before are taken; the one returned is taken after. */
export function freeSlug(base: string, taken: Set<string>): string {
  let slug = base
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
  taken.add(slug)
  return slug
}
