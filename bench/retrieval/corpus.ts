/**
 * The labelled retrieval corpus: hand-written notes and code plus generated daily logs and
 * meeting notes (a seeded generator, so every run builds the same pages). The logs and meetings
 * mention the same people, projects and ideas as the target pages, which makes them realistic
 * distractors.
 */
import { OTHER_FILES } from './corpus-code-other.js'
import { TS_FILES } from './corpus-code-ts.js'
import { CONCEPTS } from './corpus-concepts.js'
import { PEOPLE, PERSONAL, PROJECTS, WRITING } from './corpus-notes.js'

export interface BenchPage {
  slug: string
  kind: 'markdown' | 'code'
  content: string
  path?: string
}

/** mulberry32: a tiny seeded PRNG, so the generated pages never change between runs. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function pick<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items]
  const out: T[] = []
  while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!)
  return out
}

const LOG_LINES = [
  'Reviewed the circuit breaker pull request; asked for a test of the half-open state.',
  'Paired with Noah on the flaky integration test; it was a race in the job worker.',
  'Long run: 24 km at easy pace, knee felt fine after the physio exercises.',
  'Fed the sourdough starter; it doubled in five hours, very active.',
  'Read two chapters of Thinking in Systems.',
  'Call with Grace: she suggests writing the non-goals section first.',
  'Deployed the new rate limiter to staging; p99 latency unchanged.',
  'Watered the raised beds; the basil is finally taking off.',
  'Spent the afternoon on the search revamp shadow traffic dashboard.',
  'Postgres upgrade dry run with Lars; autovacuum settings need another look.',
  'Guitar: clean G to C changes at 80 bpm.',
  'Sent the quarterly receipts to Jonas.',
  'Kitchen contractor confirmed the April start date.',
  'Incident: billing webhooks delayed 40 minutes; queue consumer was stuck.',
  'Wrote the first draft of the on-call essay.',
  'Bike: replaced the chain, 4,800 km on the old one.',
  'Design review of the observability rollout; agreed on tail-based sampling.',
  'Tried the V60 recipe with a finer grind; much sweeter.',
  'Mentoring session with Noah about his first incident review.',
  'Tested energy gels on the long run; the citrus ones are fine.',
  'Dana shared the onboarding experiment results.',
  'Elif flagged a new OAuth scope request from the mobile team.',
  'Home lab: ZFS scrub finished with no errors.',
  'Hiro explained pod disruption budgets over lunch.',
]

const MEETING_TOPICS: ReadonlyArray<{ slug: string; title: string; people: string[]; lines: string[] }> = [
  {
    slug: 'search-sync',
    title: 'Search sync',
    people: ['Chen Wei', 'Dana Ross'],
    lines: ['Shadow traffic shows better results on long questions.', 'Identifier lookups still need lexical matching.', 'Action: add the fusion weights to the dashboard.'],
  },
  {
    slug: 'billing-standup',
    title: 'Billing standup',
    people: ['Ada Okafor', 'Noah Fischer'],
    lines: ['Dual-write has run for two weeks without drift.', 'Charge retries now carry keys.', 'Action: plan the cut-over weekend.'],
  },
  {
    slug: 'security-review',
    title: 'Security review',
    people: ['Elif Yilmaz', 'Kemi Adeyemi'],
    lines: ['Pentest findings: two medium, none high.', 'Rotate the signing secret quarterly.', 'Action: document token expiry.'],
  },
  {
    slug: 'incident-review',
    title: 'Incident review',
    people: ['Hiro Tanaka', 'Noah Fischer'],
    lines: ['Timeline reconstructed from traces.', 'Root cause: consumer stuck on a poison message.', 'Action: dead-letter queue after three attempts.'],
  },
  {
    slug: 'design-crit',
    title: 'Design critique',
    people: ['Kemi Adeyemi', 'Dana Ross'],
    lines: ['Dark theme contrast fails on secondary buttons.', 'Keyboard focus rings are back.', 'Action: audit every colour token.'],
  },
  {
    slug: 'one-on-one-noah',
    title: '1:1 with Noah',
    people: ['Noah Fischer'],
    lines: ['On-call went well; one page at 3 am.', 'Wants to learn more about databases.', 'Action: pair on the migration tool.'],
  },
  {
    slug: 'data-platform',
    title: 'Data platform sync',
    people: ['Bruno Keller', 'Chen Wei'],
    lines: ['Warehouse costs up twenty percent.', 'Click logs needed for ranking experiments.', 'Action: share a sampled export.'],
  },
]

function dailyPages(count: number): BenchPage[] {
  const random = seededRandom(20240101)
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(2024, 0, 3 + i * 5)).toISOString().slice(0, 10)
    const lines = pick(random, LOG_LINES, 3 + Math.floor(random() * 3))
    return { slug: `daily/${date}`, kind: 'markdown' as const, content: `# ${date}\n\n${lines.map((l) => `- ${l}`).join('\n')}\n` }
  })
}

function meetingPages(count: number): BenchPage[] {
  const random = seededRandom(777)
  return Array.from({ length: count }, (_, i) => {
    const topic = MEETING_TOPICS[i % MEETING_TOPICS.length]!
    const date = new Date(Date.UTC(2024, 1, 1 + i * 7)).toISOString().slice(0, 10)
    const lines = pick(random, topic.lines, 2 + Math.floor(random() * 2))
    const body = `# ${topic.title} ${date}\n\nAttendees: ${topic.people.join(', ')}\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`
    return { slug: `meetings/${date}-${topic.slug}`, kind: 'markdown' as const, content: body }
  })
}

function note([slug, title, body]: readonly [string, string, string]): BenchPage {
  return { slug, kind: 'markdown', content: `---\ntitle: ${JSON.stringify(title)}\n---\n# ${title}\n\n${body}\n` }
}

/** Pages the default hard excludes must keep out of every result. */
export const EXCLUDED_PAGES: readonly BenchPage[] = [
  note(['test/fixtures/consistent-hashing', 'Consistent hashing fixture', 'Ring fixture for consistent hashing tests with virtual nodes.']),
  note(['archive/2019/sourdough', 'Old sourdough notes', 'Sourdough starter, stretch and folds, Dutch oven.']),
]

export function buildCorpus(): BenchPage[] {
  return [
    ...[...CONCEPTS, ...PEOPLE, ...PROJECTS, ...WRITING, ...PERSONAL].map(note),
    ...[...TS_FILES, ...OTHER_FILES].map(([path, content]) => ({ slug: path, kind: 'code' as const, path, content })),
    ...dailyPages(30),
    ...meetingPages(20),
    ...EXCLUDED_PAGES,
  ]
}
