// test-runner: shares a process
import t from 'tap'
import { convertBounded } from '../../src/convert/index.js'
import { enexExport } from './enex-fixtures.js'

const bytes = (text: string) => new TextEncoder().encode(text)

t.test('an Evernote export: one page per note with its tags, times and content as markdown', async (t) => {
  const r = await convertBounded({ bytes: bytes(enexExport()), name: 'exports/Travel Notebook.enex' })
  t.equal(r.format, 'enex')
  t.same(r.counts, { notes: 5 })
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['evernote/travel-notebook/trip-packing-list-2024-01-15', 'Trip & packing list'],
      ['evernote/travel-notebook/meeting-2024-01-10', 'Meeting'],
      ['evernote/travel-notebook/meeting-2024-01-11', 'Meeting'],
      ['evernote/travel-notebook/meeting-2024-01-11-140000', 'Meeting'],
      ['evernote/travel-notebook/undated', 'Undated'],
    ],
    'a note is named by its title and the day it was made, and the time of day when that is not enough',
  )
  const trip = r.drafts[0]!
  t.same(trip.frontmatter, { type: 'note', created: '2024-01-15T10:30:00Z', updated: '2024-01-16T08:00:00Z', tags: ['travel', 'lists'], source_url: 'https://example.org/packing', author: 'Ada' })
  t.match(trip.body, /^# Trip & packing list\n\nBring the \*\*passport\*\* & tickets\.\n\n- \[x\] Book the hotel\n\n- \[ \] Buy an adapter/)
  t.match(trip.body, /\(attached: image\/png\)/)
  t.match(trip.body, /## Cities\n\n- Lisbon\n- Porto/)
  t.notMatch(trip.body, /iVBORw0KGgo|en-note|DOCTYPE|<\?xml/, 'no resource data or ENML left')
  t.match(r.drafts[2]!.body, /Second meeting, \[agenda\]\(https:\/\/example\.org\/agenda\)\./)
})

t.test('what is not an Evernote export is refused with a code', async (t) => {
  await t.rejects(convertBounded({ bytes: bytes('<?xml version="1.0"?><rss></rss>'), name: 'feed.enex' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes('<en-export></en-export>'), name: 'empty.enex' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes(enexExport()), name: 'big.enex' }, { maxBytes: 1_000_000, maxDrafts: 2 }), { code: 'convert_too_many_pages' })
})
