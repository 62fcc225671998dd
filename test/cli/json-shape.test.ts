// test-runner: shares a process
import t from 'tap'
import { toSnakeCaseJson, toSnakeCaseKeys } from '../../src/util/json-shape.js'

/** The two-step reference the one-pass conversion must equal. */
function reference(value: unknown): unknown {
  return JSON.parse(JSON.stringify(toSnakeCaseKeys(value), (_key, inner: unknown) => (typeof inner === 'bigint' ? Number(inner) : inner)))
}

t.test('one pass gives what snake-casing and a JSON round trip give', async (t) => {
  const samples: unknown[] = [
    { pageKind: 'code', updatedAt: new Date('2026-01-02T03:04:05.678Z'), chunkId: 12n, score: 0.5, missing: undefined, fn: () => 1 },
    { results: [{ symbolNameQualified: 'A.b', startLine: 3, nested: { deepKeyName: [1, undefined, Number.NaN, Infinity, null] } }] },
    { frontmatter: { camelCase: { innerCamel: 1 }, when: new Date(0) }, metadata: { keepMe: true }, data: { jobId: 1 }, counts: { MISSING_CLOSE: 2 } },
    { list: [new Date(1), 5n, 'x', true, { aB: { cD: 'e' } }] },
    { empty: {}, emptyList: [], nullValue: null, map: new Map([['k', 1]]) },
  ]
  for (const sample of samples) t.same(toSnakeCaseJson(sample), reference(sample))
  t.same(toSnakeCaseJson({ pageKind: 'x' }), { page_kind: 'x' })
  t.same(toSnakeCaseJson({ frontmatter: { camelCase: 1 } }), { frontmatter: { camelCase: 1 } }, 'user-owned maps keep their keys')
})
