// test-runner: shares a process
/**
 * Bulk import writes new pages in batches; a page at a time through importPage must leave the
 * same brain: pages, tags, chunks and their search vectors, keyword statistics, aliases, every
 * kind of link (explicit, citations, mentions, code calls) and search results. The corpus links
 * forward and backward, names entity pages mid-way (mentioned before and after them), cites code,
 * repeats a slug and holds a file that fails.
 */
import t from 'tap'
import { batchStarts, importFiles } from '../../src/intake/import/import-files.js'
import { importPage } from '../../src/pages/index.js'
import { search } from '../../src/search/index.js'
import { context } from '../search/helpers.js'
import type { SqlExecutor } from '../../src/db/types.js'
import type { WalkedFile } from '../../src/intake/sources/walk.js'
import { ENGINES, openTestDatabase } from '../helpers/engines.js'

function corpus(): Map<string, string> {
  const files = new Map<string, string>()
  for (let i = 0; i < 60; i++) {
    const next = `note-${String((i + 7) % 60).padStart(2, '0')}`
    const earlier = `note-${String(Math.max(0, i - 3)).padStart(2, '0')}`
    const tags = i % 4 === 0 ? `tags: [garden, t${i % 3}]\n` : ''
    const alias = i % 9 === 0 ? `aliases: [Alias ${i}]\n` : ''
    const type = i === 20 || i === 41 ? 'type: person\n' : ''
    const title = i === 20 ? 'Ada Lovelace' : i === 41 ? 'Charles Babbage' : `Note ${i}`
    const body = [
      `Note ${i} links to [[${next}]] and back to [[${earlier}]], and to [a missing page](missing-${i % 5}.md).`,
      i % 6 === 0 ? 'Ada Lovelace and Charles Babbage worked on the engine.' : 'Tomatoes and basil grow in the garden.',
      i % 10 === 3 ? 'The helper lives in `src/util.ts`.' : '',
      i % 8 === 0 ? `See [[Alias ${Math.max(0, i - 9)}]].` : '',
      '',
      `## Section ${i}`,
      '',
      'word '.repeat(40 + i * 3),
    ].join('\n')
    files.set(`notes/note-${String(i).padStart(2, '0')}.md`, `---\ntitle: ${title}\n${type}${tags}${alias}---\n\n${body}\n`)
  }
  files.set('notes/broken.md', 'text with a NUL \u0000 byte\n')
  files.set('src/util.ts', 'export function helper(x: number): number {\n  return x * 2\n}\n')
  files.set('src/main.ts', "import { helper } from './util'\n\nexport function runMain(): number {\n  return helper(21)\n}\n")
  for (let n = 0; n < 3; n++) {
    const methods = Array.from(
      { length: 4 + n },
      (_, i) => `    def add_${i}(self, key):\n        \"\"\"Adds ${i}.\"\"\"\n        return self.add_${(i + 1) % (4 + n)}(key) + helper_${n}(${i})\n`,
    ).join('\n')
    files.set(`src/store_${n}.py`, `def helper_${n}(x):\n    return x * 2\n\n\nclass Store${n}:\n    \"\"\"Holds items.\"\"\"\n\n${methods}`)
  }
  return files
}

function walked(files: Map<string, string>): WalkedFile[] {
  return [...files.keys()].map((path) => ({ relativePath: path, absolutePath: `/unused/${path}`, kind: path.endsWith('.md') ? 'markdown' : 'code', size: 0 }) as WalkedFile)
}

async function snapshot(db: SqlExecutor): Promise<Record<string, unknown>> {
  const all = async (sql: string): Promise<unknown[]> => (await db.query(sql)).rows
  return {
    pages: await all(
      `SELECT slug, source_id, title, type, page_kind, compiled_truth, timeline, frontmatter, content_hash, source_uri, source_kind, written_via, lines_added, lines_removed FROM pages ORDER BY slug`,
    ),
    tags: await all(`SELECT p.slug, t.tag FROM tags t JOIN pages p ON p.id = t.page_id ORDER BY 1, 2`),
    aliases: await all(`SELECT p.slug, a.alias FROM page_aliases a JOIN pages p ON p.id = a.page_id ORDER BY 1, 2`),
    chunks: await all(`SELECT p.slug, c.chunk_index, c.chunk_text, c.search_vector::text AS v, c.search_length, c.symbol_name FROM content_chunks c JOIN pages p ON p.id = c.page_id ORDER BY 1, 2`),
    lexemes: await all(`SELECT lexeme, chunk_count FROM search_lexeme_stats WHERE chunk_count <> 0 ORDER BY lexeme`),
    corpus: await all(`SELECT chunk_count, total_length FROM search_corpus_stats`),
    links: await all(
      `SELECT f.slug AS from_slug, t.slug AS to_slug, l.link_type, l.link_source, l.target_text, l.origin_page_id, l.line
       FROM links l JOIN pages f ON f.id = l.from_page_id LEFT JOIN pages t ON t.id = l.to_page_id ORDER BY 1, 2 NULLS FIRST, 3, 4, 5 NULLS FIRST, 7`,
    ),
    calls: await all(`SELECT count(*)::int AS n FROM code_edges_symbol`),
    symbols: await all(
      `SELECT p.slug, c.chunk_index, s.name, s.qualified, s.symbol_type, s.start_line, s.end_line
       FROM code_symbols s JOIN pages p ON p.id = s.page_id JOIN content_chunks c ON c.id = s.chunk_id ORDER BY 1, 2, 3, 4, 5, 6, 7`,
    ),
    chunkEdges: await all(
      `SELECT fp.slug, fc.chunk_index AS from_index, tc.chunk_index AS to_index, e.to_symbol, e.edge_type, e.source_id, e.from_symbol, e.from_slug, e.from_line
       FROM code_edges_chunk e JOIN content_chunks fc ON fc.id = e.from_chunk_id JOIN pages fp ON fp.id = fc.page_id JOIN content_chunks tc ON tc.id = e.to_chunk_id
       ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
    ),
    symbolEdges: await all(
      `SELECT fp.slug, fc.chunk_index AS from_index, e.to_symbol_qualified, e.to_symbol_name, e.edge_type, e.source_id, e.from_symbol, e.from_slug, e.from_line
       FROM code_edges_symbol e JOIN content_chunks fc ON fc.id = e.from_chunk_id JOIN pages fp ON fp.id = fc.page_id
       ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
    ),
  }
}

for (const engine of ENGINES) {
  t.test(`a batched import leaves the brain a page-at-a-time import leaves [${engine}]`, async (t) => {
    const files = corpus()
    const batched = await openTestDatabase(engine)
    t.teardown(batched.cleanup)
    const single = await openTestDatabase(engine)
    t.teardown(single.cleanup)

    // Small batches, so that each batch is parsed while the one before it is written.
    const result = await importFiles(batched.db, walked(files), { sourceId: 'default', embedder: null, batchFiles: 7, readContent: async (f) => files.get(f.relativePath)! })
    t.equal(result.created, files.size - 1)
    t.same(
      result.failed.map((f) => [f.path, f.code]),
      [['notes/broken.md', 'NULL_BYTES']],
      'the failing file is reported, the rest written',
    )

    for (const file of walked(files)) {
      const slug = file.kind === 'code' ? file.relativePath : file.relativePath.replace(/\.md$/, '')
      await importPage(single.db, {
        slug,
        sourceId: 'default',
        kind: file.kind,
        content: files.get(file.relativePath)!,
        path: file.relativePath,
        provenance: { sourceUri: file.relativePath, sourceKind: 'file' },
      }).catch(() => null)
    }

    const [a, b] = [await snapshot(batched.db), await snapshot(single.db)]
    for (const part of Object.keys(b)) t.same(a[part], b[part], `${part} are identical`)
    t.ok((b.links as unknown[]).length > 150 && (b.chunks as unknown[]).length > 60, 'the comparison saw a whole brain')
    t.ok((b.symbolEdges as unknown[]).length > 10 && (b.chunkEdges as unknown[]).length > 0 && (b.symbols as unknown[]).length > 10, 'the comparison saw a code graph')
    t.ok(
      (b.links as Array<{ link_type: string }>).some((l) => l.link_type === 'mentions'),
      'mentions of entity pages are among the links',
    )

    for (const query of ['tomatoes garden', 'lovelace', 'helper', 'section']) {
      const [x, y] = [(await search(context(batched.db, undefined), query, { limit: 10 })).results, (await search(context(single.db, undefined), query, { limit: 10 })).results]
      t.ok(y.length > 0, `"${query}" finds pages`)
      t.same(
        x.map((r) => [r.slug, r.score]),
        y.map((r) => [r.slug, r.score]),
        `search "${query}" ranks the same`,
      )
    }

    // Importing the same files again skips them all.
    const again = await importFiles(batched.db, walked(files), { sourceId: 'default', embedder: null, readContent: async (f) => files.get(f.relativePath)! })
    t.equal(again.skipped, files.size - 1)
  })
}

for (const engine of ENGINES) {
  t.test(`an import stopped while the next batch is parsed keeps the batches written and no part of another [${engine}]`, async (t) => {
    const files = corpus()
    const brain = await openTestDatabase(engine)
    t.teardown(brain.cleanup)
    const stop = new AbortController()
    const run = importFiles(brain.db, walked(files), {
      sourceId: 'default',
      embedder: null,
      batchFiles: 7,
      signal: stop.signal,
      readContent: async (f) => files.get(f.relativePath)!,
      // File 10 belongs to the second batch, parsed while the first is written.
      onProgress: (p) => p.done === 10 && stop.abort(),
    })
    await t.rejects(run, { name: 'AbortError' }, 'the import stops with the abort')
    const { rows } = await brain.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages`)
    t.equal(rows[0]!.n, 7, 'the first batch is written whole, the second not at all')
    const again = await importFiles(brain.db, walked(files), { sourceId: 'default', embedder: null, batchFiles: 7, readContent: async (f) => files.get(f.relativePath)! })
    t.same([again.skipped, again.created], [7, files.size - 8], 'a second import skips what was written and writes the rest')
  })
}

t.test('batches end at a file count or a byte budget, and a file over the budget goes alone', async (t) => {
  const sized = (sizes: number[]): Array<{ size: number }> => sizes.map((size) => ({ size }))
  t.same(batchStarts([], 100, 30), [0], 'no files, no batch')
  t.same(batchStarts(sized(Array(250).fill(1)), 100, 1000), [0, 100, 200, 250], 'a hundred files a batch')
  t.same(batchStarts(sized([10, 10, 10, 25, 5]), 100, 30), [0, 3, 5], 'up to the byte budget, not past it')
  t.same(batchStarts(sized([50, 1, 40]), 100, 30), [0, 1, 2, 3], 'a file larger than the budget is a batch of its own')
})
