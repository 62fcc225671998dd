// test-runner: shares a process
import t from 'tap'
import { codeCallees, codeCallers, codeDef, codeRefs } from '../../src/code/index.js'
import { isBrainError } from '../../src/errors/index.js'
import { engineTest } from '../helpers/engines.js'
import { importRepo } from './fixture.js'

engineTest(t, 'code-def: functions, classes and methods, by bare and qualified name, in rank order', async (t, { db }) => {
  await importRepo(db)
  const enqueue = await codeDef(db, { symbol: 'enqueue' })
  t.match(enqueue, [{ slug: 'src/queue.ts', file: 'src/queue.ts', language: 'typescript', symbolType: 'function', startLine: 14, endLine: 17 }])
  t.match(enqueue[0]!.snippet, /^export function enqueue\(job: string\): string \{/)
  t.notMatch(enqueue[0]!.snippet, /function store/, 'the snippet is the definition, not its whole merged chunk')
  t.same(Object.keys(enqueue[0]!).sort(), ['endLine', 'file', 'language', 'slug', 'snippet', 'sourceId', 'startLine', 'symbolName', 'symbolNameQualified', 'symbolType'])

  const submit = await codeDef(db, { symbol: 'submit' })
  t.match(submit, [{ slug: 'src/queue.ts', symbolType: 'method', symbolNameQualified: 'Queue.submit', startLine: 4 }], 'a method inside a class chunk is a definition')
  t.same(await codeDef(db, { symbol: 'Queue.submit' }), submit, 'qualified name')
  t.same(await codeDef(db, { symbol: 'Queue::submit' }), submit, 'C++/Ruby spelling of a qualified name')
  t.same(await codeDef(db, { symbol: 'Other.submit' }), [], 'a wrong qualifier finds nothing')
  t.match(await codeDef(db, { symbol: 'main.run' }), [{ slug: 'app/main.py', symbolType: 'function', startLine: 9 }], 'module.func: a top-level function of main.py')

  const app = await codeDef(db, { symbol: 'App' })
  t.same(
    app.map((d) => [d.symbolType, d.slug]),
    [
      ['function', 'src/app.tsx'],
      ['class', 'src/App.java'],
    ],
    'function ranks before class',
  )
  t.same(
    (await codeDef(db, { symbol: 'App', language: 'java' })).map((d) => d.slug),
    ['src/App.java'],
    '--lang filters',
  )
  t.same((await codeDef(db, { symbol: 'App', limit: 1 })).length, 1, '--limit caps')
  const point = await codeDef(db, { symbol: 'Point' })
  t.same(
    point.map((d) => d.symbolType),
    ['struct'],
    'a Rust impl block is not a definition type',
  )
  const run = await codeDef(db, { symbol: 'run' })
  t.same(
    run.map((d) => `${d.symbolType}:${d.symbolNameQualified}`),
    ['function:run', 'method:Tool.run', 'method:App.run'],
    'methods after the spec types, then by slug',
  )
})

engineTest(t, 'code-refs: every chunk mentioning the symbol, case-insensitive, by slug then line', async (t, { db }) => {
  await importRepo(db)
  const refs = await codeRefs(db, { symbol: 'ENQUEUE' })
  t.ok(refs.length >= 1)
  t.ok(refs.every((r) => r.slug === 'src/queue.ts' && 'symbolName' in r))
  t.match(refs[0]!.snippet, /enqueue/i)
  t.ok(refs.every((r) => r.snippet.length <= 500))
  const greet = await codeRefs(db, { symbol: 'greet' })
  t.same([...new Set(greet.map((r) => r.slug))], ['src/App.java', 'src/Program.cs'], 'several pages, ordered by slug')
  t.same(await codeRefs(db, { symbol: 'dup_a' }), [], 'the chunk header (file path) is not searched')
  t.same(
    (await codeRefs(db, { symbol: 'greet', language: 'csharp' })).map((r) => r.slug),
    ['src/Program.cs'],
  )
})

engineTest(t, 'every code command refuses a missing symbol with its own usage code and a hint', async (t, { db }) => {
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['code_def', () => codeDef(db, { symbol: '' })],
    ['code_refs', () => codeRefs(db, { symbol: '  ' })],
    ['code_callers', () => codeCallers(db, { symbol: '' })],
    ['code_callees', () => codeCallees(db, { symbol: undefined as unknown as string })],
  ]
  for (const [command, call] of cases) {
    const err = await call().then(
      () => null,
      (e: unknown) => e,
    )
    t.ok(isBrainError(err), command)
    if (!isBrainError(err)) continue
    t.equal(err.errorClass, 'UsageError')
    t.equal(err.code, `${command}_requires_symbol`)
    t.ok(err.hint && err.hint.length > 0, 'with a hint')
  }
  const badDepth = await codeCallers(db, { symbol: 'x', depth: 0 }).then(
    () => null,
    (e: unknown) => e,
  )
  t.ok(isBrainError(badDepth) && badDepth.code === 'code_callers_invalid_depth')
})
