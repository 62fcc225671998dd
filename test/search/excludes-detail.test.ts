// test-runner: shares a process
import t from 'tap'
import { DEFAULT_HARD_EXCLUDES, detailGate, isExcluded, parseExcludeList, resolveExcludes } from '../../src/search/index.js'

t.test('BRAIN_SEARCH_EXCLUDE parsing', async (t) => {
  const cases: Array<[string | null, string[]]> = [
    [null, []],
    ['', []],
    ['private/', ['private/']],
    [' private/ , drafts/old-,, ', ['private/', 'drafts/old-']],
  ]
  for (const [raw, expected] of cases) t.same(parseExcludeList(raw), expected, String(raw))
})

t.test('hard excludes: defaults + env + exclude_slug_prefixes − include_slug_prefixes', async (t) => {
  t.same([...DEFAULT_HARD_EXCLUDES].sort(), ['.raw/', 'archive/', 'attachments/', 'test/'])
  const cases: Array<[string, Parameters<typeof resolveExcludes>[0], string[]]> = [
    ['defaults only', {}, ['.raw/', 'archive/', 'attachments/', 'test/']],
    ['env adds', { envRaw: 'private/,scratch/' }, ['.raw/', 'archive/', 'attachments/', 'private/', 'scratch/', 'test/']],
    ['call adds', { exclude_slug_prefixes: ['daily/'] }, ['.raw/', 'archive/', 'attachments/', 'daily/', 'test/']],
    ['include removes a default', { include_slug_prefixes: ['archive/'] }, ['.raw/', 'attachments/', 'test/']],
    ['include removes an env entry', { envRaw: 'private/', include_slug_prefixes: ['private/'] }, ['.raw/', 'archive/', 'attachments/', 'test/']],
    ['include removes narrower entries too', { exclude_slug_prefixes: ['archive/2019/'], include_slug_prefixes: ['archive/'] }, ['.raw/', 'attachments/', 'test/']],
    ['a narrower include does not lift a wider exclude', { include_slug_prefixes: ['archive/2019/'] }, ['.raw/', 'archive/', 'attachments/', 'test/']],
    ['duplicates collapse', { envRaw: 'test/', exclude_slug_prefixes: ['test/', ' test/ '] }, ['.raw/', 'archive/', 'attachments/', 'test/']],
    ['blank entries ignored', { exclude_slug_prefixes: ['', '  '], include_slug_prefixes: [''] }, ['.raw/', 'archive/', 'attachments/', 'test/']],
  ]
  for (const [name, input, expected] of cases) t.same(resolveExcludes(input), expected, name)
})

t.test('isExcluded matches prefixes, not substrings', async (t) => {
  const excludes = resolveExcludes({})
  t.ok(isExcluded('test/fixtures/a', excludes))
  t.ok(isExcluded('.raw/dump', excludes))
  t.notOk(isExcluded('notes/test/a', excludes))
  t.notOk(isExcluded('testing/a', excludes))
})

t.test('detail gate: trimmed, lower-cased; high disables the boost', async (t) => {
  const cases: Array<[string | undefined, string, boolean]> = [
    [undefined, 'medium', true],
    ['', 'medium', true],
    ['   ', 'medium', true],
    ['low', 'low', true],
    ['medium', 'medium', true],
    ['high', 'high', false],
    [' HIGH ', 'high', false],
    ['High\n', 'high', false],
    ['\tLow', 'low', true],
  ]
  for (const [raw, detail, boost] of cases) {
    const gate = detailGate(raw)
    t.equal(gate.detail, detail, JSON.stringify(raw))
    t.equal(gate.sourceBoost, boost, `${JSON.stringify(raw)} boost`)
  }
  t.ok(detailGate('low').snippetChars < detailGate('medium').snippetChars && detailGate('medium').snippetChars < detailGate('high').snippetChars)
  t.throws(() => detailGate('max'), { errorClass: 'UsageError', code: 'invalid_detail' })
})
