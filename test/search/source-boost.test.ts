// test-runner: shares a process
import t from 'tap'
import { DEFAULT_SOURCE_BOOSTS, parseSourceBoost, resolveSourceBoosts, sourceFactor } from '../../src/search/index.js'

t.test('BRAIN_SOURCE_BOOST parsing', async (t) => {
  const cases: Array<[string, string | null, Array<[string, number]>]> = [
    ['unset', null, []],
    ['empty', '', []],
    ['one entry', 'projects/:1.3', [['projects/', 1.3]]],
    [
      'several, with spaces',
      ' projects/ : 1.3 ,scratch/:0.2,  inbox/:0 ',
      [
        ['projects/', 1.3],
        ['scratch/', 0.2],
        ['inbox/', 0],
      ],
    ],
    ['zero is legal', 'noise/:0', [['noise/', 0]]],
    [
      'leading-dot and trailing-dot decimals',
      'a/:.5,b/:2.',
      [
        ['a/', 0.5],
        ['b/', 2],
      ],
    ],
    ['prefix containing a colon: the factor follows the last colon', 'meet:ings/:1.1', [['meet:ings/', 1.1]]],
    ['no colon is skipped', 'projects/1.3,ok/:2', [['ok/', 2]]],
    ['empty prefix is skipped', ':1.5,ok/:2', [['ok/', 2]]],
    ['non-numeric factor is skipped', 'a/:high,b/:1e3,c/:0x10,d/:,e/:1.5x,ok/:2', [['ok/', 2]]],
    ['NaN and Infinity are skipped', 'a/:NaN,b/:Infinity,ok/:2', [['ok/', 2]]],
    ['empty entries are skipped', ',,ok/:2,,', [['ok/', 2]]],
    ['later entries win', 'a/:1,a/:3', [['a/', 3]]],
    ['explicit plus sign', 'a/:+1.5', [['a/', 1.5]]],
  ]
  for (const [name, raw, expected] of cases) {
    t.same([...parseSourceBoost(raw)], expected, name)
  }
})

t.test('a negative factor is rejected with a typed error', async (t) => {
  for (const raw of ['daily/:-1', 'ok/:1,bad/:-0.5', 'x/: -2 ']) {
    t.throws(() => parseSourceBoost(raw), { errorClass: 'ConfigError', code: 'source_boost_negative' }, raw)
  }
})

t.test('defaults hold the specified factors and are overridden or extended by the variable', async (t) => {
  t.match(DEFAULT_SOURCE_BOOSTS, { 'originals/': 1.5, 'writing/': 1.4, 'concepts/': 1.3, 'people/': 1.2, 'daily/': 0.8, 'media/x/': 0.7 })
  const boosts = resolveSourceBoosts('daily/:0.1,projects/:1.25')
  const asMap = new Map(boosts.map((b) => [b.prefix, b.factor]))
  t.equal(asMap.get('daily/'), 0.1, 'override')
  t.equal(asMap.get('projects/'), 1.25, 'extension')
  t.equal(asMap.get('originals/'), 1.5, 'untouched default')
  const lengths = boosts.map((b) => b.prefix.length)
  t.same(
    lengths,
    [...lengths].sort((a, b) => b - a),
    'longest prefix first',
  )
})

t.test('the longest matching prefix decides; unmatched slugs get 1.0', async (t) => {
  const boosts = resolveSourceBoosts('media/:0.9,media/x/threads/:0.3')
  const cases: Array<[string, number]> = [
    ['originals/essay', 1.5],
    ['media/x/post-1', 0.7],
    ['media/x/threads/a', 0.3],
    ['media/youtube/talk', 0.9],
    ['notes/idea', 1],
    ['original', 1],
    ['daily/2024-01-01', 0.8],
  ]
  for (const [slug, factor] of cases) t.equal(sourceFactor(slug, boosts), factor, slug)
})
