// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { getBacklinks, getLinks, listUnresolved } from '../../src/links/index.js'
import { findPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value))

/** A board as Obsidian writes it: two groups (one inside the other), cards of each kind, arrows. */
const board = {
  nodes: [
    { id: 'g-research', type: 'group', label: 'Research', x: 0, y: 0, width: 900, height: 700 },
    { id: 'g-sources', type: 'group', label: 'Sources', x: 20, y: 300, width: 500, height: 380 },
    { id: 'question', type: 'text', text: '## Why do tides lag the moon?\nFriction with the sea floor.', x: 40, y: 40, width: 300, height: 120 },
    { id: 'note', type: 'file', file: 'Notes/Tidal friction.md', x: 40, y: 320, width: 300, height: 100 },
    { id: 'section', type: 'file', file: 'Notes/Moon.md', subpath: '#Orbit', x: 360, y: 320, width: 140, height: 100 },
    { id: 'paper', type: 'link', url: 'https://example.org/tides', x: 40, y: 500, width: 300, height: 100 },
    { id: 'later', type: 'text', text: 'Ask the harbour master', x: 1200, y: 40, width: 200, height: 80 },
    { id: 'first', type: 'text', text: 'Start here', x: 1000, y: -200, width: 200, height: 80 },
    { id: 'picture', type: 'file', file: 'attachments/tide chart.png', x: 1000, y: 400, width: 200, height: 200 },
  ],
  edges: [
    { id: 'e1', fromNode: 'question', toNode: 'note', label: 'explained in' },
    { id: 'e2', fromNode: 'note', fromEnd: 'arrow', toNode: 'paper' },
    { id: 'e3', fromNode: 'later', toNode: 'g-sources', toEnd: 'none' },
    { id: 'e4', fromNode: 'first', toNode: 'nowhere' },
  ],
}

t.test('a canvas: cards in reading order, groups as sections, files as embeds, arrows as connections', async (t) => {
  t.equal(converterFor('Boards/Tides.canvas'), 'canvas')
  const r = await convertBounded({ bytes: bytes(board), name: 'Boards/Tides.canvas' })
  t.equal(r.format, 'canvas')
  t.same(r.counts, { cards: 7, connections: 3 }, 'an arrow to a card that is not there is dropped')
  const [page] = r.drafts
  t.same([page?.title, page?.frontmatter], ['Tides', { type: 'canvas' }])
  t.equal(
    page?.body,
    [
      '# Tides',
      'Start here',
      'Ask the harbour master',
      '![[attachments/tide chart.png]]',
      '## Research',
      '## Why do tides lag the moon?\nFriction with the sea floor.',
      '### Sources',
      '![[Notes/Tidal friction.md]]',
      '![[Notes/Moon.md#Orbit]]',
      '<https://example.org/tides>',
      '## Connections',
      '- Why do tides lag the moon? → Tidal friction: explained in\n- Tidal friction ↔ https://example.org/tides\n- Ask the harbour master — Sources',
    ].join('\n\n') + '\n',
  )
})

t.test('an empty canvas is a page; what is not a canvas is refused; a path that cannot be a link stays text', async (t) => {
  const empty = await convertBounded({ bytes: bytes({}), name: 'Untitled.canvas' })
  t.equal(empty.drafts[0]?.body, '# Untitled\n')
  await t.rejects(convertBounded({ bytes: bytes('not json'), name: 'Broken.canvas' }), { code: 'convert_corrupt' })
  await t.rejects(convertBounded({ bytes: bytes({ nodes: 'many' }), name: 'Odd.canvas' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes([1, 2]), name: 'List.canvas' }), { code: 'convert_unsupported' })
  const odd = await convertBounded({
    bytes: bytes({
      nodes: [
        { id: 'a', type: 'file', file: 'weird]]name|x.md', x: 0, y: 0, width: 1, height: 1 },
        { id: 'b', type: 'link', url: 'javascript:alert(1)' },
      ],
    }),
    name: 'Odd.canvas',
  })
  t.equal(odd.drafts[0]?.body, '# Odd\n\n(file: weird]]name|x.md)\n\njavascript:alert(1)\n', 'no link is made of a path with link syntax, nor of a script URL')
})

t.test('groups inside groups cannot loop, and many groups over many cards stay quick', async (t) => {
  const same = { x: 0, y: 0, width: 100, height: 100 }
  const twins = await convertBounded({
    bytes: bytes({
      nodes: [
        { id: 'a', type: 'group', label: 'A', ...same },
        { id: 'b', type: 'group', label: 'B', ...same },
        { id: 'c', type: 'text', text: 'inside', x: 10, y: 10, width: 10, height: 10 },
      ],
    }),
    name: 'Twins.canvas',
  })
  t.equal(twins.drafts[0]?.body, '# Twins\n\n## A\n\n### B\n\ninside\n', 'of two groups alike, the one listed first holds the other')
  const nodes = Array.from({ length: 20_000 }, (_, i) =>
    i % 10 === 0 ? { id: `g${i}`, type: 'group', label: `G${i}`, x: i, y: i, width: 5, height: 5 } : { id: `t${i}`, type: 'text', text: `card ${i}`, x: i, y: i, width: 1, height: 1 },
  )
  const many = await convertBounded({ bytes: bytes({ nodes }), name: 'Many.canvas' })
  t.equal(many.counts.cards, 18_000, 'past the group limit the cards are still all there')
  await t.rejects(convertBounded({ bytes: bytes({ nodes: [...nodes, ...nodes.slice(0, 1)] }), name: 'Huge.canvas' }), { code: 'convert_too_large' })
})

engineTest(t, 'a vault with a canvas: the canvas links to the notes it shows, and a note links to the canvas', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-canvas-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'Notes'), { recursive: true })
  await mkdir(join(root, 'Boards'), { recursive: true })
  await writeFile(join(root, 'Notes', 'Tidal friction.md'), '# Tidal friction\n\nThe sea floor drags the bulge ahead of the moon.\n')
  await writeFile(join(root, 'Notes', 'Moon.md'), '# Moon\n\n## Orbit\n\nSee the [[Tides.canvas]] board and [[Missing deck.pptx]].\n')
  await writeFile(join(root, 'Boards', 'Tides.canvas'), JSON.stringify(board))
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.formats.canvas?.pages, 1)
  const page = await findPage(db, 'default', 'boards/tides')
  t.same([page?.title, page?.type, page?.frontmatter.source_format], ['Tides', 'canvas', 'canvas'])
  const out = await getLinks(db, 'boards/tides')
  t.same(
    out.map((l) => [l.linkType, l.toSlug, l.anchor]).sort(),
    [
      ['embeds', null, null],
      ['embeds', 'notes/moon', 'Orbit'],
      ['embeds', 'notes/tidal-friction', null],
    ],
    'the notes a canvas shows are its embeds; the picture stays an unresolved attachment',
  )
  t.same(
    (await getBacklinks(db, 'boards/tides')).map((l) => l.fromSlug),
    ['notes/moon'],
    "a note's [[Board.canvas]] link finds the canvas",
  )
  const wanted = await listUnresolved(db)
  t.same(
    wanted.map((w) => w.target),
    ['Missing deck.pptx'],
    'a missing slide deck is a wanted page now that decks are imported; the canvas picture is an attachment',
  )
})
