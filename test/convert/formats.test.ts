// test-runner: shares a process
import t from 'tap'
import { converterFor, SINGLE_PAGE_FORMATS } from '../../src/convert/index.js'
import { defineFormat, FORMATS, pickFormat, type DocumentFormat, type SourceFormat } from '../../src/convert/registry/index.js'

/** What every registry must hold to: each problem is one line naming the format. */
function problems(formats: readonly DocumentFormat[]): string[] {
  const found: string[] = []
  const seen = (what: string, values: (f: DocumentFormat) => readonly string[]): void => {
    const owner = new Map<string, string>()
    for (const f of formats)
      for (const value of values(f)) {
        const other = owner.get(value)
        if (other !== undefined) found.push(`${f.name}: ${what} ${value} is also ${other}'s`)
        owner.set(value, f.name)
      }
  }
  seen('name', (f) => [f.name])
  seen('extension', (f) => f.extensions)
  seen('content type', (f) => f.contentTypes)
  const names = new Set(formats.map((f) => f.name))
  for (const f of formats) {
    if (!/^[a-z][a-z0-9-]*$/.test(f.name)) found.push(`${f.name}: a name is lower-case letters, digits and dashes`)
    if (f.produces.length === 0) found.push(`${f.name}: produces no source format`)
    for (const extension of f.extensions) if (!/^\.[a-z0-9.]+$/.test(extension)) found.push(`${f.name}: extension ${extension} is not lower-case with its dot`)
    for (const type of f.contentTypes) if (type !== type.toLowerCase() || !type.includes('/')) found.push(`${f.name}: content type ${type} is not a lower-case type/subtype`)
    if (f.extensions.length === 0 && f.fileName === undefined && f.magic === undefined && f.sniff === undefined && f.contentTypes.length === 0) found.push(`${f.name}: nothing detects it`)
    for (const other of f.sniffOverTypesOf ?? []) if (!names.has(other)) found.push(`${f.name}: overrides the type of ${other}, which is no format`)
    if (f.sniffOverTypesOf !== undefined && f.sniff === undefined) found.push(`${f.name}: overrides a type without a sniff`)
    for (const [key, value] of Object.entries(f.limits ?? {})) if (!(Number.isInteger(value) && value > 0)) found.push(`${f.name}: limit ${key} is not a positive integer`)
  }
  return found
}

t.test('the registry has no duplicate names, extensions or content types, and every format declares what it must', async (t) => {
  t.same(problems(FORMATS), [])
  for (const f of FORMATS) t.type(await f.convert(), 'function', `${f.name} loads its converter`)
})

t.test('the check finds what a careless format gets wrong', async (t) => {
  const careless = defineFormat({
    name: 'Web',
    produces: [],
    extensions: ['.HTML', '.pdf'],
    contentTypes: ['text/html'],
    sniffOverTypesOf: ['nothing'],
    singlePage: true,
    limits: { maxDrafts: 0 },
    // What it produces is a run-time problem here; the compiler lets a converter fall back to text.
    convert: async () => () => ({ format: 'text', drafts: [], counts: {} }),
  })
  t.same(problems([...FORMATS, careless]), [
    "Web: extension .pdf is also pdf's",
    "Web: content type text/html is also html's",
    'Web: a name is lower-case letters, digits and dashes',
    'Web: produces no source format',
    'Web: extension .HTML is not lower-case with its dot',
    'Web: overrides the type of nothing, which is no format',
    'Web: overrides a type without a sniff',
    'Web: limit maxDrafts is not a positive integer',
  ])
  const silent = defineFormat({ name: 'silent', produces: ['text'], extensions: [], contentTypes: [], singlePage: false, convert: async () => () => ({ format: 'text', drafts: [], counts: {} }) })
  t.same(problems([silent]), ['silent: nothing detects it'])
})

t.test('the lists are derived from the format objects', async (t) => {
  for (const f of FORMATS) {
    for (const extension of f.extensions) t.equal(converterFor(`folder/Some File${extension.toUpperCase()}`), f.name, `${extension} is ${f.name}`)
    for (const type of f.contentTypes) t.equal(converterFor('download', `${type}; charset=utf-8`), f.name, `${type} is ${f.name}`)
    for (const produced of f.produces) t.equal(SINGLE_PAGE_FORMATS.has(produced), f.singlePage, `${produced} is ${f.singlePage ? '' : 'not '}single-page`)
  }
  t.equal(converterFor('scan.bin', undefined, new TextEncoder().encode('%PDF-1.7\n')), 'pdf', 'a magic number marks a file whatever its name')
  t.equal(converterFor('notes/plan.txt'), null, 'a name no format claims is no document')
})

// The worked example of CONTRIBUTING.md: a format is one object, and a registry with it added detects it.
const subtitles = defineFormat({
  name: 'subtitles',
  produces: ['text'],
  extensions: ['.vtt'],
  magic: [0x57, 0x45, 0x42, 0x56, 0x54, 0x54], // WEBVTT
  contentTypes: ['text/vtt'],
  singlePage: true,
  convert: async () => (input) => ({ format: 'text', drafts: [{ slugHint: input.name, title: input.name, frontmatter: {}, body: new TextDecoder().decode(input.bytes) }], counts: {} }),
})

t.test('adding a format is adding its object to the registry', async (t) => {
  const registry = [...FORMATS, subtitles]
  t.same(problems(registry), [])
  t.equal(pickFormat(registry, 'talks/Keynote.VTT')?.name, 'subtitles', 'by its extension')
  t.equal(pickFormat(registry, 'captions', undefined, new TextEncoder().encode('WEBVTT\n\n00:01.000 --> 00:04.000\nHello'))?.name, 'subtitles', 'by its first bytes')
  t.equal(pickFormat(registry, 'captions', 'text/vtt')?.name, 'subtitles', 'by its content type')
  t.equal(pickFormat(registry, 'papers/q1.pdf')?.name, 'pdf', 'the formats before it keep their files')
  t.equal(pickFormat(FORMATS, 'talks/Keynote.vtt'), undefined, 'the registry without it does not know it')
})

// What the type check proves: the source formats are what the registered formats produce, and a
// converter's results call themselves only what its format produces (or the plain-text fallback).
const registered: SourceFormat[] = ['chatgpt', 'pdf', 'text']
// @ts-expect-error no registered format produces subtitles
const unregistered: SourceFormat = 'subtitles'
const misnamed = defineFormat({
  name: 'captions',
  produces: ['captions'],
  extensions: ['.srt'],
  contentTypes: [],
  singlePage: true,
  // @ts-expect-error the converter's results call themselves html, which captions does not produce
  convert: async () => () => ({ format: 'html', drafts: [], counts: {} }),
})

t.test('the source formats follow the registry', async (t) => {
  t.same(
    registered.filter((f) => !FORMATS.some((format) => (format.produces as readonly string[]).includes(f))),
    [],
  )
  t.notOk(
    FORMATS.some((format) => (format.produces as readonly string[]).includes(unregistered)),
    'the format the compiler refuses is produced by no format',
  )
  t.equal(misnamed.name, 'captions')
})
