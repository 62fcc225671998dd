// test-runner: shares a process
/**
 * A page with more distinct words than one tsvector can hold (1 MiB) is stored and searchable:
 * the page-level vector reads its beginning, and its chunks hold the rest.
 */
import t from 'tap'
import { search } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { context, importAll, slugs } from './helpers.js'

/** Words that never repeat, so the vector grows with every one of them. */
function distinctWords(count: number): string[] {
  const words: string[] = []
  for (let i = 0; i < count; i++) words.push(`w${(i * 2654435761).toString(36)}x${i.toString(36)}`)
  return words
}

engineTest(t, 'a page too large for one tsvector is stored, and its last word is found', async (t, { db }) => {
  const words = distinctWords(70_000)
  const lines: string[] = []
  for (let i = 0; i < words.length; i += 12) lines.push(words.slice(i, i + 12).join(' '))
  const content = `# Hash log\n\n${lines.join('\n')}\n\nThe closing marker is zebrafinch.\n`
  t.ok(content.length > 1024 * 1024, 'more text than a tsvector may hold')
  await importAll(db, [{ slug: 'logs/hashes', content }], null)
  const ctx = context(db, undefined)
  t.same(slugs(await search(ctx, 'zebrafinch')), ['logs/hashes'], 'a word at the end of the page')
  t.same(slugs(await search(ctx, words[1]!)), ['logs/hashes'], 'a word at its start')
})
