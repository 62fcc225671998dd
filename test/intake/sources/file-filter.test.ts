// test-runner: shares a process
import t from 'tap'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { compileGlobs, createFileFilter, decodeTextBytes, isMinifiedCode, readTextFile, walkFiles } from '../../../src/intake/sources/index.js'
import { kindByExtension, slugForPath } from '../../../src/intake/sources/path-kind.js'

t.test('globs: **/ is zero or more directories, ? one non-slash character', async (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['docs/**/*.md', 'docs/a.md', true],
    ['docs/**/*.md', 'docs/x/y/a.md', true],
    ['docs/**/*.md', 'other/a.md', false],
    ['**/*.md', 'a.md', true],
    ['note?.md', 'note1.md', true],
    ['note?.md', 'note12.md', false],
    ['a/?/b', 'a/x/b', true],
    ['a/?/b', 'a//b', false],
    ['*.ts', 'deep/dir/file.ts', true],
    ['src/*.ts', 'src/deep/file.ts', false],
    ['drafts/', 'drafts/x/y.md', true],
  ]
  for (const [pattern, path, expected] of cases) t.equal(compileGlobs([pattern]).matches(path), expected, `${pattern} ~ ${path}`)
})

t.test('markdown strategy: README, .raw/ and ops/ excluded; code strategy: code extensions', async (t) => {
  const md = createFileFilter({ strategy: 'markdown' })
  t.equal(md.kindOf('notes/a.md'), 'markdown')
  t.equal(md.kindOf('README.md'), null)
  t.equal(md.kindOf('sub/readme.markdown'), null)
  t.equal(md.kindOf('.raw/x.md'), null)
  t.equal(md.kindOf('ops/runbook.md'), null)
  t.equal(md.kindOf('src/a.ts'), null)
  const code = createFileFilter({ strategy: 'code' })
  for (const path of ['a.ts', 'b.py', 'c.go', 'd.rs', 'e.kts', 'f.mli', 'g.sol', 'h.yml', 'i.htm', 'j.cts']) t.equal(code.kindOf(path), 'code', path)
  t.equal(code.kindOf('notes/a.md'), null)
  t.equal(code.kindOf('package-lock.json'), null, 'lock files are generated')
  t.equal(code.enterDirectory('node_modules'), false)
  t.equal(code.enterDirectory('.git'), false)
  t.equal(code.enterDirectory('.raw'), false, 'raw captures are never read, whatever the strategy')
  t.equal(code.enterDirectory('ops'), true, 'ops/ is excluded from markdown sync only')
  const auto = createFileFilter({ strategy: 'auto', include: ['src/**'], exclude: ['**/*.test.ts'] })
  t.equal(auto.kindOf('src/a.ts'), 'code')
  t.equal(auto.kindOf('src/a.test.ts'), null)
  t.equal(auto.kindOf('lib/a.ts'), null, 'outside include')
})

t.test('plain-text notes (.txt, reStructuredText, Org, AsciiDoc) are notes; their README is not', async (t) => {
  const md = createFileFilter({ strategy: 'markdown' })
  for (const path of ['notes/list.txt', 'a.TEXT', 'docs/guide.rst', 'agenda.org', 'book/ch1.adoc', 'book/ch2.asciidoc']) t.equal(md.kindOf(path), 'markdown', path)
  t.equal(md.kindOf('README.txt'), null)
  t.equal(md.kindOf('docs/readme.rst'), null)
  t.equal(md.kindOf('notes/list.txt.bak'), null)
  t.equal(createFileFilter({ strategy: 'code' }).kindOf('notes/list.txt'), null, 'code imports leave notes alone')
  t.equal(kindByExtension('notes/gone.txt'), 'markdown', 'a deleted text note is found by its extension')
  t.equal(slugForPath('Notes/Shopping List.txt'), 'notes/shopping-list.txt', 'the slug keeps the extension, as a link to the file names it')
})

t.test('a file with a UTF-16 byte order mark is read as UTF-16 text; broken UTF-16 is a clear error', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'brain-utf16-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const text = 'Notes on herons: café, 鷺\n'
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
  const be = Buffer.from(le)
  be.swap16()
  writeFileSync(join(root, 'le.txt'), le)
  writeFileSync(join(root, 'be.txt'), be)
  writeFileSync(join(root, 'odd.txt'), Buffer.concat([le, Buffer.from([0x41])]))
  t.equal(await readTextFile(join(root, 'le.txt')), text)
  t.equal(await readTextFile(join(root, 'be.txt')), text)
  t.equal(decodeTextBytes(le, 'le.txt'), text, 'bytes from a git blob too')
  await t.rejects(readTextFile(join(root, 'odd.txt')), { code: 'invalid_utf8', message: /not valid UTF-16/ })
  t.throws(() => decodeTextBytes(Buffer.from('a\u0000b'), 'nul.txt'), { code: 'binary_file' }, 'NUL bytes without a byte order mark are still binary')
})

t.test('the walker never follows symlinks', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'brain-walk-'))
  const outside = mkdtempSync(join(tmpdir(), 'brain-outside-'))
  const write = (p: string, body = 'x'): void => {
    mkdirSync(dirname(join(root, p)), { recursive: true })
    writeFileSync(join(root, p), body)
  }
  write('notes/a.md', '# A')
  write('notes/deep/b.md', '# B')
  writeFileSync(join(outside, 'secret.md'), '# secret')
  symlinkSync(join(outside, 'secret.md'), join(root, 'notes/link.md'))
  symlinkSync(outside, join(root, 'linked-dir'))
  const files = await walkFiles(root, createFileFilter({ strategy: 'markdown' }))
  t.same(
    files.map((f) => f.relativePath),
    ['notes/a.md', 'notes/deep/b.md'],
  )
})

t.test('reading a missing file, a folder or an unreadable path is a clear error', async (t) => {
  const { readTextFile } = await import('../../../src/intake/sources/index.js')
  const { serializeError } = await import('../../../src/errors/index.js')
  await t.rejects(readTextFile('/no/such/file.md'), { code: 'file_not_found', errorClass: 'NotFoundError' })
  await t.rejects(readTextFile(tmpdir()), { code: 'not_a_file' })
  const systemError = Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS', syscall: 'open' })
  t.same(serializeError(systemError).class, 'DiskError', 'a read-only disk is a disk problem with advice')
  t.same(serializeError(systemError).code, 'disk_read_only')
  const otherSystemError = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES', syscall: 'open' })
  t.same([serializeError(otherSystemError).class, serializeError(otherSystemError).code], ['SystemError', 'eacces'])
})

t.test('reading a file in a row gives what reading it asynchronously gives, errors included', async (t) => {
  const { readTextFile, readTextFileSync } = await import('../../../src/intake/sources/read-text.js')
  const { MAX_FILE_BYTES } = await import('../../../src/intake/sources/file-filter.js')
  const root = mkdtempSync(join(tmpdir(), 'brain-read-'))
  writeFileSync(join(root, 'note.md'), '\uFEFF# Note\n\nText.\n')
  writeFileSync(join(root, 'bad.md'), Buffer.from([0x23, 0x20, 0xc3, 0x28]))
  writeFileSync(join(root, 'nul.ts'), 'const a = 1\u0000\n')
  writeFileSync(join(root, 'huge.md'), Buffer.alloc(MAX_FILE_BYTES + 1, 0x61))
  symlinkSync(join(root, 'note.md'), join(root, 'link.md'))
  mkdirSync(join(root, 'folder'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const outcome = async (read: () => Promise<string> | string): Promise<string> => {
    try {
      return `text: ${await read()}`
    } catch (err) {
      return `error: ${(err as { code?: string }).code}`
    }
  }
  for (const name of ['note.md', 'bad.md', 'nul.ts', 'huge.md', 'link.md', 'folder', 'missing.md']) {
    const path = join(root, name)
    for (const allowNul of [false, true]) {
      const sync = await outcome(() => readTextFileSync(path, { allowNul }))
      t.equal(sync, await outcome(() => readTextFile(path, { allowNul })), `${name}${allowNul ? ' (NUL allowed)' : ''}: ${JSON.stringify(sync.slice(0, 40))}`)
    }
  }
})

t.test('minified code: scripts and stylesheets whose lines average over 110 characters, from 1,000 characters on', async (t) => {
  const long = 'a'.repeat(150)
  t.ok(isMinifiedCode('x/bundle.js', `${long}\n`.repeat(10)))
  t.ok(isMinifiedCode('x/style.CSS', 'b'.repeat(5000)))
  t.ok(isMinifiedCode('x/mod.mjs', `${long}\n`.repeat(10)))
  t.notOk(isMinifiedCode('x/app.js', `${'c'.repeat(100)}\n`.repeat(50)), 'long lines, under the average')
  t.notOk(isMinifiedCode('x/one-line.js', 'd'.repeat(900)), 'a short file')
  t.notOk(isMinifiedCode('x/data.py', 'e'.repeat(5000)), 'only scripts and stylesheets')
})
