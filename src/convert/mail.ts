/**
 * Email → one page per message under `mail/`: `.eml` files, `.mbox` files and Maildir messages.
 * From, to, cc, date, subject and message id in front matter; the plain-text part preferred and
 * HTML converted; quoted replies and signatures folded away; a reply links to the message it
 * answers when that message is in the same file; attachments listed, and PDF or text
 * attachments become pages of their own linked from the message.
 */
import { createHash } from 'node:crypto'
import PostalMime from 'postal-mime'
import { ConvertError } from './errors.js'
import { htmlToMarkdown } from './html.js'
import { nestHeadings } from './render.js'
import { slugWords } from './slug-words.js'
import type { ConvertInput, ConvertLimits, ConvertResult, PageDraft } from './types.js'

type Email = Awaited<ReturnType<typeof PostalMime.parse>>
type Address = NonNullable<Email['from']>

const MAX_ATTACHMENT_TEXT = 1024 * 1024

/** The messages of an mbox: split at `From ` lines, `>From ` unescaped (mboxrd). */
function splitMbox(text: string): string[] {
  const messages: string[] = []
  let current: string[] | null = null
  for (const line of text.split('\n')) {
    if (line.startsWith('From ')) {
      if (current) messages.push(current.join('\n'))
      current = []
      continue
    }
    current?.push(line.replace(/^>(>*From )/, '$1'))
  }
  if (current) messages.push(current.join('\n'))
  return messages.filter((m) => m.trim() !== '')
}

function addressText(a: Address | undefined): string | undefined {
  if (a === undefined) return undefined
  if ('group' in a && Array.isArray((a as { group?: unknown }).group)) return a.name
  return a.name ? `${a.name} <${a.address ?? ''}>` : (a.address ?? '')
}

const addressList = (list: Address[] | undefined): string[] | undefined => (list && list.length > 0 ? list.map((a) => addressText(a) ?? '') : undefined)

/** Quoted lines and their "On … wrote:" lead-in folded to one marker; a signature after `-- ` dropped. */
function foldReply(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const sig = lines.findIndex((l) => l === '-- ' || l === '--')
  const kept = sig >= 0 ? lines.slice(0, sig) : lines
  const out: string[] = []
  for (let i = 0; i < kept.length; i++) {
    const line = kept[i]!
    const leadIn = /^On .+wrote:\s*$/.test(line) && (kept[i + 1] ?? '').startsWith('>')
    if (line.startsWith('>') || leadIn) {
      if (out[out.length - 1] !== '> …quoted text folded…') out.push('> …quoted text folded…')
      continue
    }
    out.push(line)
  }
  return out.join('\n').trim()
}

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 8)

function messageSlug(mail: Email, index: number, fileName: string): string {
  const date = mail.date && !Number.isNaN(Date.parse(mail.date)) ? new Date(mail.date).toISOString().slice(0, 10) : 'undated'
  return `mail/${date}-${slugWords(mail.subject ?? '', 50)}-${shortHash(mail.messageId ?? `${fileName}#${index}`)}`
}

async function attachmentDraft(att: Email['attachments'][number], parentSlug: string, limits: ConvertLimits): Promise<PageDraft | null> {
  const name = att.filename ?? 'attachment'
  const bytes = typeof att.content === 'string' ? new TextEncoder().encode(att.content) : new Uint8Array(att.content as ArrayBuffer)
  const slugHint = `${parentSlug}/${slugWords(name.replace(/\.[a-z0-9]+$/i, ''), 50)}`
  if (att.mimeType === 'application/pdf' || /\.pdf$/i.test(name)) {
    const { convertPdf } = await import('./pdf.js')
    const pdf = await convertPdf({ bytes, name }, limits).catch(() => null)
    const draft = pdf?.drafts[0]
    return draft ? { ...draft, slugHint, frontmatter: { ...draft.frontmatter, attachment_of: parentSlug } } : null
  }
  if (att.mimeType.startsWith('text/') && bytes.byteLength <= MAX_ATTACHMENT_TEXT) {
    const text = new TextDecoder().decode(bytes)
    return { slugHint, title: name, frontmatter: { type: 'attachment', source_format: 'text', attachment_of: parentSlug }, body: `# ${name}\n\n${text.trim()}\n` }
  }
  return null
}

async function messageDrafts(mail: Email, slug: string, bySlugId: Map<string, string>, limits: ConvertLimits): Promise<PageDraft[]> {
  const title = mail.subject?.trim() || '(no subject)'
  const frontmatter: Record<string, unknown> = {
    type: 'email',
    from: addressText(mail.from),
    to: addressList(mail.to),
    cc: addressList(mail.cc),
    date: mail.date,
    subject: mail.subject,
    message_id: mail.messageId,
  }
  if (mail.inReplyTo) frontmatter.in_reply_to = mail.inReplyTo
  const text = mail.text?.trim() ? mail.text : mail.html ? htmlToMarkdown(mail.html) : ''
  const sections = [`# ${title}`]
  const parent = mail.inReplyTo ? bySlugId.get(mail.inReplyTo) : undefined
  if (parent) sections.push(`In reply to [${parent}](${parent}).`)
  sections.push(nestHeadings(foldReply(text), 1) || '(empty message)')
  const attachments: PageDraft[] = []
  const listed: string[] = []
  for (const att of mail.attachments.filter((a) => a.disposition !== 'inline' || !a.contentId)) {
    const draft = await attachmentDraft(att, slug, limits)
    const size = typeof att.content === 'string' ? att.content.length : (att.content as ArrayBuffer).byteLength
    const label = `${att.filename ?? 'attachment'} (${att.mimeType}, ${size} bytes)`
    listed.push(draft ? `- [${label}](${slug}/${draft.slugHint.split('/').pop()})` : `- ${label}`)
    if (draft) attachments.push(draft)
  }
  if (listed.length > 0) sections.push(`## Attachments\n\n${listed.join('\n')}`)
  if (parent) frontmatter.in_reply_to_page = parent
  return [{ slugHint: slug, title, frontmatter, body: `${sections.join('\n\n')}\n` }, ...attachments]
}

export async function convertMail<Kind extends 'eml' | 'mbox'>(input: ConvertInput, limits: ConvertLimits, kind: Kind): Promise<ConvertResult<Kind>> {
  const raws = kind === 'mbox' ? splitMbox(new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)) : [input.bytes]
  if (raws.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: no messages`)
  if (raws.length > limits.maxDrafts) throw new ConvertError('convert_too_many_pages', `${input.name}: ${raws.length} messages exceed ${limits.maxDrafts}`)
  const mails: Email[] = []
  for (const raw of raws) {
    try {
      mails.push(await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' }))
    } catch (err) {
      throw new ConvertError('convert_corrupt', `${input.name}: a message does not parse (${err instanceof Error ? err.message : String(err)})`)
    }
  }
  if (mails.every((m) => !m.from && !m.subject && !m.messageId)) throw new ConvertError('convert_unsupported', `${input.name}: not an email message`)
  const first = input.firstIndex ?? 0
  const slugs = mails.map((m, i) => messageSlug(m, first + i, input.name))
  const bySlugId = new Map<string, string>()
  mails.forEach((m, i) => m.messageId && bySlugId.set(m.messageId, slugs[i]!))
  const drafts: PageDraft[] = []
  let attachments = 0
  for (const [i, mail] of mails.entries()) {
    const [message, ...files] = await messageDrafts(mail, slugs[i]!, bySlugId, limits)
    drafts.push({ ...message!, position: { index: first + i } }, ...files)
    attachments += files.length
  }
  return { format: kind, drafts, counts: { messages: mails.length, attachment_pages: attachments } }
}
