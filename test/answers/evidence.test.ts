// test-runner: shares a process
import t from 'tap'
import { buildContextPack, extractiveAnswer, renderItem, type ContextPack } from '../../src/answers/index.js'
import { resolveRelativeDates } from '../../src/answers/dates.js'
import { wholeSentences } from '../../src/answers/text.js'
import { engineTest } from '../helpers/engines.js'
import { seed } from './fixtures.js'

/** A pack of hits with the given texts, numbered from 1, for the answer's pure functions. */
const packOf = (question: string, items: Array<{ text: string; date?: string }>): ContextPack => ({
  question,
  source: null,
  budget: 1000,
  tokens: 0,
  notice: null,
  items: items.map((item, i) => ({
    n: i + 1,
    kind: 'hit',
    slug: `notes/item-${i + 1}`,
    source_id: 'default',
    title: `item ${i + 1}`,
    chunk_id: i + 1,
    line: null,
    page: null,
    date: item.date ?? null,
    text: item.text,
    tokens: 20,
  })),
})

const turn = (n: number, date: string, text: string) => ({
  slug: `chats/garden-club/turn-${n}`,
  content: `---\ntitle: Garden club, turn ${n}\ndate: ${date}\n---\n${text}\n`,
})

t.test('relative dates name the date they mean, from the date they were written', async (t) => {
  t.equal(
    resolveRelativeDates('I went yesterday, and last Saturday; two weeks ago too. Next month, again.', '2023-05-08'),
    'I went yesterday (2023-05-07), and last Saturday (2023-05-06); two weeks ago (2023-04-24) too. Next month (2023-06), again.',
  )
  t.equal(resolveRelativeDates('three days ago and last year', '2024-03-01'), 'three days ago (2024-02-27) and last year (2023)')
  t.equal(resolveRelativeDates('yesterday', null), 'yesterday', 'nothing to resolve against')
  t.equal(resolveRelativeDates('the last day of the fair', '2023-05-08'), 'the last day of the fair', 'a word that only looks relative is left')
})

engineTest(t, 'a pack item carries its page date and its relative dates resolved', async (t, { db }) => {
  const deps = await seed(db, [turn(1, '2023-05-08', 'Odile: I went to the seed swap at the library yesterday.'), turn(2, '2023-05-08', 'Piet: Lovely. I still have to prune the pear tree.')])
  const pack = await buildContextPack(deps, 'When did Odile go to the seed swap?', { budget: 500 })
  const swap = pack.items.find((i) => i.slug === 'chats/garden-club/turn-1')
  t.ok(swap, 'the turn is in the pack')
  t.equal(swap?.date, '2023-05-08')
  t.match(swap?.text, /yesterday \(2023-05-07\)/, 'the relative date is resolved in the item')
  t.equal(renderItem(swap!).split('\n')[0], `[${swap!.n}] chats/garden-club/turn-1 2023-05-08`, 'a short heading: slug and date')
})

engineTest(t, 'a larger budget is filled with more hits than a small one holds', async (t, { db }) => {
  const turns = Array.from({ length: 45 }, (_, i) => turn(i, '2024-01-01', `Mara: the compost heap needed turning again on round ${i}, with straw.`))
  const deps = await seed(db, turns)
  const pages = async (budget: number) => new Set((await buildContextPack(deps, 'compost heap straw', { budget })).items.map((i) => i.slug)).size
  const [small, large] = [await pages(1000), await pages(4000)]
  t.ok(large > 30, `more than the first 30 hits reach a large pack (${large})`)
  t.ok(large > small, `${large} pages at 4,000 tokens, ${small} at 1,000`)
})

engineTest(t, 'a quoted title in a question is words to find, not a filter', async (t, { db }) => {
  const deps = await seed(db, [turn(1, '2023-06-01', 'Odile: The novel about the lighthouse keeper moved me to tears.')])
  const pack = await buildContextPack(deps, 'What did Odile think of the novel "Lamps at Sea"?', { budget: 500 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/garden-club/turn-1'),
    'the turn that never names the quoted title is still found',
  )
})

t.test('whole sentences: wrapped lines joined, never cut inside a sentence', async (t) => {
  const text =
    'of the week before. Spaced repetition works better for memory: fewer\nreviews than cramming, and spread over days.\nIt lasts for years.\n\n- A list item stands alone\n# Heading\nA line under the heading stands apart'
  t.same(wholeSentences(text), [
    'Spaced repetition works better for memory: fewer reviews than cramming, and spread over days.',
    'It lasts for years.',
    'A list item stands alone',
    'A line under the heading stands apart',
  ])
})

engineTest(t, 'the extractive answer quotes whole sentences, each with its citation', async (t, { db }) => {
  const deps = await seed(db, [
    {
      slug: 'notes/study',
      content: '# Study habits\n\nSpaced repetition works better for long-term memory, with fewer\nreviews than cramming. Sleep between sessions helps\nthe memory settle.\n',
    },
  ])
  const pack = await buildContextPack(deps, 'does spaced repetition need fewer reviews than cramming?', { budget: 1000 })
  const answer = extractiveAnswer(pack)
  const study = pack.items.find((i) => i.slug === 'notes/study')!
  const lines = answer.answer.split('\n')
  t.ok(lines.includes(`Spaced repetition works better for long-term memory, with fewer reviews than cramming. [${study.n}]`), answer.answer)
  for (const line of lines) t.match(line, /^\P{Ll}.*[.!?]? \[\d+\]$/u, `a whole sentence with its citation: ${line}`)
  t.notOk(
    lines.some((l) => l.startsWith('reviews than cramming')),
    'no fragment of a wrapped sentence',
  )
})

t.test('whole sentences read as a reader sees them: links as their text, no quote or callout markup', async (t) => {
  const text = [
    'Embedded files stay up to date, see [[Embed files#Embed a note|embedding notes]] and [[Canvas]].',
    '',
    '> [!tip]- Drag and drop embed',
    '> On **desktop**, you can drag files into a note',
    '> to embed them at once.',
    'A paragraph after the quote stands apart. ^b15695',
  ].join('\n')
  t.same(wholeSentences(text), [
    'Embedded files stay up to date, see embedding notes and Canvas.',
    'On desktop, you can drag files into a note to embed them at once.',
    'A paragraph after the quote stands apart.',
  ])
})

engineTest(t, 'the extractive answer quotes no markup and no sentence that only leads into a list', async (t, { db }) => {
  const deps = await seed(db, [
    {
      slug: 'notes/embedding',
      content: [
        '# Embedding files',
        '',
        'To embed a file in a note, put an exclamation mark before its [[Internal links|internal link]].',
        '',
        'To embed a file in a note quickly:',
        '',
        '- Drag the file into the note.',
        '',
        '> [!tip] Embed a file',
        '> On **desktop**, you can also drop a file on a note to embed the file.',
      ].join('\n'),
    },
  ])
  const pack = await buildContextPack(deps, 'how do I embed a file in a note?', { budget: 1000 })
  const lines = extractiveAnswer(pack).answer.split('\n')
  t.ok(
    lines.some((l) => /^To embed a file in a note, put an exclamation mark before its internal link\. \[\d+\]$/.test(l)),
    `the link reads as its text: ${lines.join(' / ')}`,
  )
  t.ok(
    lines.some((l) => /^On desktop, you can also drop a file on a note to embed the file\. \[\d+\]$/.test(l)),
    'the quoted sentence without its marker and emphasis',
  )
  for (const line of lines) {
    t.notMatch(line, /\[\[|\*\*|^>|\[!/, `no markup: ${line}`)
    t.notMatch(line, /: \[\d+\]$/, `no lead-in: ${line}`)
  }
})

t.test('whole sentences of code are its comments, and a fence in a note is left out', async (t) => {
  const chunk = [
    '[TypeScript] code/interval.ts:1-9 nextInterval',
    '/**',
    ' * The next review interval after a recall attempt.',
    ' * A failed recall starts again at one day.',
    ' */',
    'export function nextInterval(days: number, recalled: boolean): number {',
    '  // Doubles the interval after a successful recall.',
    '  return recalled ? days * 2 : 1',
    '}',
  ].join('\n')
  t.same(wholeSentences(chunk), ['The next review interval after a recall attempt.', 'A failed recall starts again at one day.', 'Doubles the interval after a successful recall.'])
  const python = '[Python] code/backup.py:9-12 run_backup\ndef run_backup(dry_run: bool = False) -> int:\n    """Mirror the photo library to the NAS with rsync."""\n    return 0'
  t.same(wholeSentences(python), ['Mirror the photo library to the NAS with rsync.'])
  t.same(wholeSentences('Run the script below first.\n\n```sh\necho "Hello. This is code, not a sentence."\n```\n\nThen check the output folder.'), [
    'Run the script below first.',
    'Then check the output folder.',
  ])
  t.same(
    wholeSentences('Run the script below first.\n~~~\nSo says the code. Not a sentence.\n~~~\nThen check the output folder.'),
    ['Run the script below first.', 'Then check the output folder.'],
    'a tilde fence too',
  )
})

engineTest(t, 'an extractive answer quotes no code and names a missing word as the question wrote it', async (t, { db }) => {
  const deps = await seed(db, [
    {
      slug: 'code/interval.ts',
      kind: 'code',
      path: 'code/interval.ts',
      content: 'export function isDue(lastReview: Date, intervalDays: number, now: Date): boolean {\n  return now.getTime() >= lastReview.getTime() + intervalDays * 86_400_000\n}\n',
    },
    { slug: 'notes/review', content: '# Review\n\nA review is due once its interval has passed since the last review date.\n' },
  ])
  const answer = extractiveAnswer(await buildContextPack(deps, 'when is the next review date of the comet flybys?', { budget: 1000 }))
  t.notMatch(answer.answer, /function|getTime|\[TypeScript\]/, `no code quoted: ${answer.answer}`)
  t.match(answer.answer, /A review is due once its interval has passed since the last review date\. \[\d+\]/)
  t.ok(answer.gaps.includes('nothing in the brain mentions "comet"'), answer.gaps.join('; '))
  t.ok(answer.gaps.includes('nothing in the brain mentions "flybys"'), 'the word as written, not its stem')
})

t.test('an extractive answer quotes a chat line as its speaker said it, and a month its items are dated in is no gap', async (t) => {
  const pack = packOf('When was Odile camping in July?', [
    { date: '2023-07-14', text: 'Odile: … We went camping by the lake last weekend. …' },
    { date: '2023-07-20', text: 'Piet: lol camping with Odile was the best part of the summer.' },
  ])
  const answer = extractiveAnswer(pack)
  t.same(answer.answer.split('\n').sort(), ['Odile: We went camping by the lake last weekend. [1]', 'Piet: lol camping with Odile was the best part of the summer. [2]'])
  t.same(answer.gaps, [], 'July is the month the turns are dated in')
  t.same(extractiveAnswer({ ...pack, question: 'Was Odile camping in March?' }).gaps, ['nothing in the brain mentions "March"'])
})

t.test('whole sentences read links and HTML as their text, keep inline code, and skip a list of links', async (t) => {
  const text = [
    'Canvas files use the open [JSON Canvas](https://jsoncanvas.org/) format ![diagram](canvas.png).',
    '',
    'You can <span style="color: red">colour a word</span>, and `Map<string, number>` stays code.',
    '',
    'An escaped \\*\\*star\\*\\* stays as written.',
    '',
    'Three tiers: *Insider* and _VIP_, while snake_case and 2 * 3 stay.',
    '',
    '**Storage usage**  ',
    'Displays a progress bar of the storage used.',
    '',
    '- [[Create a base]]',
    '- [Bases syntax](bases-syntax.md)',
  ].join('\n')
  t.same(wholeSentences(text), [
    'Canvas files use the open JSON Canvas format.',
    'You can colour a word, and `Map<string, number>` stays code.',
    'An escaped **star** stays as written.',
    'Three tiers: Insider and VIP, while snake_case and 2 * 3 stay.',
    'Storage usage: Displays a progress bar of the storage used.',
  ])
})

t.test('an extractive answer puts the definition asked for first and a pointer elsewhere last', async (t) => {
  const pack = packOf('What is a canvas?', [
    { text: 'For more information, refer to the canvas page.' },
    { text: 'Open a canvas file directly.' },
    { text: 'Canvas is a core plugin for visual note-taking in a two-dimensional space.' },
  ])
  t.same(extractiveAnswer(pack).answer.split('\n'), [
    'Canvas is a core plugin for visual note-taking in a two-dimensional space. [3]',
    'Open a canvas file directly. [2]',
    'For more information, refer to the canvas page. [1]',
  ])
})

t.test("a table's rows are sentences naming each cell by its column", async (t) => {
  const table = [
    'Shortcuts for editing:',
    '',
    '| Action | Shortcut |',
    '|-|-|',
    '| Undo | `Ctrl+Z` |',
    '| Open [[Hotkeys|the hotkeys]] | `Ctrl+,` |',
    '| Redo | |',
    '',
    '| a row | without its header |',
  ].join('\n')
  t.same(wholeSentences(table), ['Shortcuts for editing:', 'Action: Undo; Shortcut: `Ctrl+Z`.', 'Action: Open the hotkeys; Shortcut: `Ctrl+,`.', 'Action: Redo.'])
})
