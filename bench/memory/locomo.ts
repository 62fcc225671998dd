/**
 * Reading the LoCoMo conversations (`data/locomo10.json` of the LoCoMo repository, given by path
 * at run time and never kept in this project): each dialogue turn as a markdown page dated by its
 * session, and the questions with the turns that hold their evidence.
 */
import { readFileSync } from 'node:fs'

export interface Turn {
  /** The dialogue turn id, `D<session>:<turn>`. */
  id: string
  speaker: string
  text: string
  /** ISO date of the turn's session. */
  date: string
  /** The session's date as the dataset writes it. */
  when: string
}

export interface Question {
  question: string
  category: number
  evidence: string[]
}

export interface Conversation {
  id: string
  turns: Turn[]
  questions: Question[]
}

/** LoCoMo's question categories, by its own numbering. */
export const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' }

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** "1:56 pm on 8 May, 2023" → "2023-05-08". */
function isoDate(text: string): string {
  const match = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(text)
  if (!match) throw new Error(`No date in "${text}"`)
  const month = MONTHS.indexOf(match[2]!.toLowerCase()) + 1
  return `${match[3]}-${String(month).padStart(2, '0')}-${match[1]!.padStart(2, '0')}`
}

interface RawTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}

export function readLocomo(path: string): Conversation[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Array<{
    sample_id: string
    conversation: Record<string, unknown>
    qa: Array<{ question: string; category: number; evidence: string[] }>
  }>
  return raw.map((sample) => {
    const turns: Turn[] = []
    for (let s = 1; Array.isArray(sample.conversation[`session_${s}`]); s++) {
      const when = String(sample.conversation[`session_${s}_date_time`])
      for (const turn of sample.conversation[`session_${s}`] as RawTurn[]) {
        const shared = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : ''
        turns.push({ id: turn.dia_id, speaker: turn.speaker, text: `${turn.text}${shared}`, date: isoDate(when), when })
      }
    }
    const questions = sample.qa.map((q) => ({
      question: q.question,
      category: q.category,
      // A few evidence lists hold several ids in one string ("D8:6; D9:17").
      evidence: q.evidence.flatMap((e) => e.match(/D\d+:\d+/g) ?? []),
    }))
    return { id: sample.sample_id, turns, questions }
  })
}

/** The page of one turn: titled by conversation, turn and session date, dated by its session. */
export function turnPage(conversation: string, turn: Turn): string {
  const title = `${conversation} ${turn.id} (${turn.when})`
  return `---\ntitle: ${JSON.stringify(title)}\ndate: ${turn.date}\n---\n${turn.speaker}: ${turn.text}\n`
}

export function turnFile(turn: Turn): string {
  return `${turn.id.replace(':', '-').toLowerCase()}.md`
}

/** The turn id a pack item's title names. */
export function turnOfTitle(title: string): string | null {
  return /\bD\d+:\d+\b/.exec(title)?.[0] ?? null
}
