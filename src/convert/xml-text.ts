const ENTITY = /&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/**
 * XML text with its five named entities and its character references read. Any other entity is
 * left as written: a converter reads no DTD, so nothing a file declares is ever expanded.
 */
export function decodeXmlText(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole
  })
}
