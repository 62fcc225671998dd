/**
 * A deterministic corpus of realistic-looking markdown notes: people, projects, meetings and
 * daily notes with front matter, links, lists, timelines and the odd fenced code block.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const TOPICS = ['databases', 'gardening', 'climbing', 'typescript', 'sourdough', 'cycling', 'photography', 'chess', 'budgeting', 'woodworking', 'astronomy', 'running']
const VERBS = ['reviewed', 'sketched', 'argued about', 'measured', 'rewrote', 'planned', 'tested', 'summarised', 'questioned', 'finished']
const NOUNS = [
  'the index layout',
  'a watering schedule',
  'the route grades',
  'error handling',
  'hydration levels',
  'gear ratios',
  'exposure settings',
  'an opening line',
  'the monthly plan',
  'a dovetail joint',
  'the eyepiece',
  'interval paces',
]
const FOLDERS = ['people', 'projects', 'meetings', 'daily', 'concepts', 'writing']

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

function pick<T>(items: readonly T[], r: () => number): T {
  return items[Math.floor(r() * items.length)]!
}

function sentence(r: () => number): string {
  return `We ${pick(VERBS, r)} ${pick(NOUNS, r)} while thinking about ${pick(TOPICS, r)}.`
}

function page(i: number, r: () => number): { path: string; text: string } {
  const folder = pick(FOLDERS, r)
  const topic = pick(TOPICS, r)
  const paragraphs = Array.from({ length: 3 + Math.floor(r() * 6) }, () => Array.from({ length: 3 + Math.floor(r() * 5) }, () => sentence(r)).join(' '))
  const fence = r() < 0.2 ? `\n\n\`\`\`ts\nexport function step${i}(n: number): number {\n  return n * ${i % 7} + 1\n}\n\`\`\`\n` : ''
  const timeline = r() < 0.4 ? `\n\n## Timeline\n\n- 2024-0${1 + (i % 9)}-1${i % 10}: ${sentence(r)}\n- 2024-1${i % 3}-0${1 + (i % 9)}: ${sentence(r)}\n` : ''
  const text = `---\ntitle: ${topic} note ${i}\ntype: ${folder === 'people' ? 'person' : 'note'}\ntags: [${topic}, ${pick(TOPICS, r)}]\n---\n# ${topic} note ${i}\n\n${paragraphs.join('\n\n')}\n\nSee [[${folder}/${topic}-${(i * 7) % 2000}]].${fence}${timeline}`
  return { path: `${folder}/${topic}-${i}.md`, text }
}

/** Writes `count` notes below `root` and returns their total size in bytes. */
export function writeMarkdownCorpus(root: string, count: number, seed = 42): number {
  const r = rng(seed)
  let bytes = 0
  for (let i = 0; i < count; i++) {
    const { path, text } = page(i, r)
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
    bytes += text.length
  }
  return bytes
}
