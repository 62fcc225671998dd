/**
 * Labelled queries over the corpus in corpus.ts. `keyword` queries use the words of their
 * targets, `question` queries are natural questions that share some words, and `paraphrase`
 * queries share no word with their targets (checked by the runner with the database's own
 * English text-search configuration, so stemming and stop words count as PostgreSQL counts them).
 */
export type QueryKind = 'keyword' | 'question' | 'paraphrase'

export interface LabelledQuery {
  kind: QueryKind
  query: string
  /** Relevant slugs; every one counts equally. */
  relevant: string[]
}

const k = (query: string, ...relevant: string[]): LabelledQuery => ({ kind: 'keyword', query, relevant })
const q = (query: string, ...relevant: string[]): LabelledQuery => ({ kind: 'question', query, relevant })
const p = (query: string, ...relevant: string[]): LabelledQuery => ({ kind: 'paraphrase', query, relevant })

export const QUERIES: readonly LabelledQuery[] = [
  k('consistent hashing virtual nodes', 'concepts/consistent-hashing', 'internal/ring/ring.go'),
  k('token bucket', 'src/http/rate-limiter.ts', 'concepts/rate-limiting'),
  k('FOR UPDATE SKIP LOCKED', 'src/queue/worker.ts'),
  k('LightGBM lambdarank', 'ml/train_ranker.py'),
  k('scrypt salt', 'src/auth/password.ts'),
  k('timingSafeEqual JWT', 'src/auth/jwt.ts'),
  k('ZFS snapshot', 'cmd/backup/main.go', 'projects/home-lab'),
  k('tonkotsu', 'notes/ramen-broth'),
  k('Fushimi Inari', 'notes/kyoto-trip'),
  k('pastéis de nata', 'notes/lisbon-trip'),
  k('PACELC', 'concepts/cap-theorem'),
  k('Luhmann index cards', 'concepts/zettelkasten'),
  k('SM-2 Anki', 'concepts/spaced-repetition', 'scripts/anki_export.py'),
  k("Little's law", 'concepts/little-law', 'src/db/pool.ts'),
  k('patellofemoral', 'notes/knee-physio'),
  k('WCAG contrast ratio', 'src/ui/theme.ts'),
  k('SpanStatusCode', 'src/observability/tracing.ts'),
  k('Bloom filter false positive', 'concepts/bloom-filter', 'crates/bloom/src/lib.rs'),
  k('Berlin marathon', 'projects/marathon-2024'),
  k('write-ahead log fsync', 'concepts/write-ahead-log', 'crates/wal/src/lib.rs'),

  q('how do I retry failed requests without all clients retrying at once', 'concepts/exponential-backoff', 'src/util/retry.ts'),
  q('what is the sourdough bake temperature', 'notes/sourdough'),
  q('when does the kitchen contractor start', 'projects/kitchen-renovation'),
  q('who files my taxes', 'people/jonas-berg'),
  q('how should I size a connection pool', 'src/db/pool.ts', 'concepts/little-law'),
  q('what did we decide about hybrid ranking in the search project', 'projects/search-revamp'),
  q('how to avoid charging a customer twice on retry', 'concepts/idempotency-keys', 'src/billing/idempotency.ts'),
  q('which replication setups exist', 'notes/ddia-chapter-5'),
  q('how does Raft elect a leader', 'concepts/raft'),
  q('what causes dead tuples in postgres', 'concepts/mvcc'),
  q('who is my running coach', 'people/maya-patel'),
  q('how long to boil eggs for ramen', 'notes/ramen-broth'),
  q('tomato leaves turning brown', 'notes/tomato-blight'),
  q('how to evict the least recently used entry', 'src/util/lru-cache.ts'),
  q('how to verify a token signature', 'src/auth/jwt.ts'),
  q('what tools run my home lab', 'projects/home-lab'),
  q('coffee to water ratio for pour over', 'notes/coffee-brewing'),
  q('how to find duplicate photos', 'scripts/dedupe_photos.py'),
  q('should I water the garden if rain is forecast', 'scripts/fetch_weather.py'),
  q('how to shut down an http server gracefully', 'internal/shutdown/shutdown.go'),

  p("what happens when a downstream stage can't keep up with its upstream", 'concepts/backpressure'),
  p('when servers lose contact, pick correctness or uptime?', 'concepts/cap-theorem'),
  p('quit hammering a broken downstream service temporarily, later probe whether it healed', 'concepts/circuit-breaker'),
  p('slip-box method where tiny interconnected jottings replace hierarchical filing', 'concepts/zettelkasten'),
  p('remembering vocabulary longer via increasingly distant quizzes', 'concepts/spaced-repetition'),
  p('extra CPUs barely help because some portion of a program cannot run concurrently', 'concepts/amdahl-law'),
  p('distributed atomic agreement that stalls everyone if the organiser dies midway', 'concepts/two-phase-commit'),
  p("persist an immutable history of occurrences, deriving today's picture from it", 'concepts/event-sourcing'),
  p('the person who gave me my bread culture', 'people/felix-baptiste'),
  p('who owns my rented apartment', 'people/isabel-moreno'),
  p('whom to consult about authorization permission changes', 'people/elif-yilmaz'),
  p('tips for resting better at night', 'notes/sleep-hygiene'),
  p('relocating to a new home checklist', 'notes/apartment-move'),
  p('keeping my bicycle in good shape', 'notes/bike-maintenance'),
  p('daily routine for improving on a six-string instrument', 'notes/guitar-practice'),
  p('making registration on the phone app quicker', 'projects/mobile-onboarding'),
  p('instrumenting our backends to understand live behaviour', 'projects/observability'),
  p('which websites may call our endpoints from a browser', 'src/http/cors.ts'),
  p('compute what a customer owes including VAT', 'src/billing/invoice.ts'),
  p('where does my money go, grouped by kind of expense', 'scripts/budget_report.py'),
  p('relation among queue length, throughput and latency', 'concepts/little-law'),
  p('setting stretch goals plus quantifiable targets each quarter', 'concepts/okrs'),
  p('literature queued up for later', 'notes/reading-list'),
  p('my former adviser from early career', 'people/grace-lindqvist'),
]
