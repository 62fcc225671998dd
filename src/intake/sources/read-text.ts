import { lstatSync, readFileSync, type Stats } from 'node:fs'
import { lstat, open, readFile } from 'node:fs/promises'
import { NotFoundError, ValidationError } from '../../errors/index.js'
import { MAX_FILE_BYTES } from './file-filter.js'

const decoder = new TextDecoder('utf-8', { fatal: true })

function statError(path: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException).code
  if (code === 'ENOENT' || code === 'ENOTDIR') return new NotFoundError('file_not_found', `${path} does not exist.`, { hint: 'Check the path.', cause: err })
  if (code === 'EACCES' || code === 'EPERM') return new ValidationError('file_unreadable', `${path} cannot be read (permission denied).`, { cause: err })
  return err
}

function refuseNonText(path: string, info: Stats): void {
  if (info.isDirectory()) throw new ValidationError('not_a_file', `${path} is a directory, not a file.`, { hint: 'To import a folder, use `brain import <folder>`.' })
  if (info.isSymbolicLink()) throw new ValidationError('symlink_refused', `${path} is a symbolic link; links are never followed.`)
  if (info.size > MAX_FILE_BYTES) {
    throw new ValidationError('file_too_large', `${path} is ${(info.size / 1048576).toFixed(1)} MiB, over the ${MAX_FILE_BYTES / 1048576} MiB limit.`, {
      hint: 'Exclude it with --exclude, or split it.',
    })
  }
}

/**
 * Reads a file as UTF-8 text, refusing what is not text: symlinks, files over the size limit,
 * invalid UTF-8 and binary content (NUL bytes in a non-markdown file).
 */
export async function readTextFile(path: string, options: { allowNul?: boolean } = {}): Promise<string> {
  let info: Stats
  try {
    info = await lstat(path)
  } catch (err) {
    throw statError(path, err)
  }
  refuseNonText(path, info)
  return decodeTextBytes(await readFile(path), path, options)
}

/**
 * readTextFile without the thread pool, for many small files in a row (an import batch): there
 * each asynchronous read cost about ten times its system calls on the importing thread
 * (bench/README.md, "Import"), and a batch blocks for a millisecond or two.
 */
export function readTextFileSync(path: string, options: { allowNul?: boolean } = {}): string {
  let info: Stats
  try {
    info = lstatSync(path)
  } catch (err) {
    throw statError(path, err)
  }
  refuseNonText(path, info)
  return decodeTextBytes(readFileSync(path), path, options)
}

/**
 * A file that opens with a UTF-16 byte order mark is UTF-16 text (what Windows editors save as
 * "Unicode"), not binary, even though every other byte of its ASCII letters is NUL.
 */
function utf16ByteOrder(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes.byteLength < 2) return null
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  return null
}

/**
 * The text rules of readTextFile for bytes from elsewhere (a git blob): size limit, strict UTF-8
 * (or UTF-16 after its byte order mark), no NUL bytes; a leading BOM is dropped. `label` names
 * the file in errors.
 */
export function decodeTextBytes(bytes: Uint8Array, label: string, options: { allowNul?: boolean } = {}): string {
  if (bytes.byteLength > MAX_FILE_BYTES) {
    throw new ValidationError('file_too_large', `${label} is ${(bytes.byteLength / 1048576).toFixed(1)} MiB, over the ${MAX_FILE_BYTES / 1048576} MiB limit.`, {
      hint: 'Exclude it with --exclude, or split it.',
    })
  }
  let text: string
  const encoding = utf16ByteOrder(bytes)
  try {
    text = encoding === null ? decoder.decode(bytes) : new TextDecoder(encoding, { fatal: true }).decode(bytes)
  } catch {
    throw new ValidationError('invalid_utf8', `${label} is not valid ${encoding === null ? 'UTF-8' : 'UTF-16'} text.`, { hint: 'Convert it to UTF-8, or exclude it.' })
  }
  if (!options.allowNul && text.includes('\u0000')) {
    throw new ValidationError('binary_file', `${label} looks binary (contains NUL bytes).`, { hint: 'Exclude it from the source.' })
  }
  return text.replace(/^\uFEFF/, '')
}

/** At most the first `length` bytes of a file, for telling what it is before reading it whole. */
export async function readFirstBytes(path: string, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r')
  try {
    const buffer = new Uint8Array(length)
    const { bytesRead } = await handle.read(buffer, 0, length, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}
