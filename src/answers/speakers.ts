/**
 * Who says a passage that is one line of a chat (`Piet: …`, or an export's `**Piet**, 14:02: …`),
 * and which of a chat's speakers a question is about. Pure functions.
 */

const PLAIN = /^([\p{Lu}][\p{L}\p{N}.'’-]*(?: [\p{Lu}][\p{L}\p{N}.'’-]*){0,3}):\s+(?=\S)/u
const EXPORTED = /^\*\*([^*\n]{1,60})\*\*(?:, [^\n]{1,40}?)?:\s+(?=\S)/u

/** The speaker of a one-line chat passage and the label that names them; null for anything else. */
export function chatSpeaker(text: string): { name: string; label: string } | null {
  if (text.trimEnd().includes('\n')) return null
  const match = PLAIN.exec(text) ?? EXPORTED.exec(text)
  return match ? { name: match[1]!, label: match[0] } : null
}

/**
 * The speakers a question names (by full name or first name, as written with its capital):
 * "What does Melanie do to relax?" is about Melanie's own turns. None when it names none of them.
 */
export function speakersAsked(question: string, speakers: Iterable<string>): Set<string> {
  const words = new Set(question.match(/\p{Lu}[\p{L}\p{N}'’-]*/gu)?.map((w) => w.replace(/['’]s$/, '')) ?? [])
  const asked = new Set<string>()
  for (const speaker of speakers) if (words.has(speaker) || words.has(speaker.split(' ')[0]!)) asked.add(speaker)
  return asked
}
