import type { Database } from '../../src/db/types.js'
import type { PackDeps } from '../../src/answers/index.js'
import { bagOfWordsEmbedder, context, importAll, type PageSpec } from '../search/helpers.js'

export const PROBE = `---
title: Probe mission
---
# Probe mission

The probe will study the outer moons. The launch window is in spring.

The launch was moved to April because the antenna test failed. See [[antenna]].

## Timeline

- 2025-01-10: launch planned for March
- 2025-02-02: launch moved to April after the antenna test failed
`

export const NOTES: PageSpec[] = [
  { slug: 'projects/probe', content: PROBE },
  { slug: 'projects/antenna', content: '# Antenna\n\nThe high-gain antenna failed its vibration test in January; a new feed horn is on order.\n' },
  { slug: 'notes/bread', content: '# Bread\n\nKnead the dough and bake it hot.\n' },
  {
    slug: 'src/queue.ts',
    kind: 'code',
    path: 'src/queue.ts',
    content:
      'export class Queue {\n  /** Puts a job on the queue. */\n  submitJob(name: string): number {\n    return name.length\n  }\n}\n\nexport function drainQueue(q: Queue): void {\n  q.submitJob("x")\n}\n',
  },
]

/** A brain with the notes above in the default source and a `work` source holding its own pages. */
export async function seed(db: Database, extra: PageSpec[] = []): Promise<PackDeps> {
  const embedder = bagOfWordsEmbedder('test-bag')
  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work') ON CONFLICT DO NOTHING`)
  await importAll(db, [...NOTES, ...extra], embedder)
  return { search: context(db, embedder) }
}
