import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { NotAvailableError, NotFoundError, ProviderError, UsageError, ValidationError } from '../errors/index.js'
import { assertInsideFolder, ONNX_CANDIDATES } from './inspect.js'

/** Files a sentence-embedding or cross-encoder folder is made of, besides its ONNX graph. */
const SIDE_FILES = ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'config.json', 'modules.json', 'config_sentence_transformers.json', '1_Pooling/config.json']

export interface PullProgress {
  file: string
  received: number
  size: number | null
}

interface PullOptions {
  hub: string
  revision?: string
  /** Take this ONNX file instead of the first of ONNX_CANDIDATES the repository has. */
  onnxFile?: string
  onProgress?: (progress: PullProgress) => void
  signal?: AbortSignal
}

export interface PulledFile {
  path: string
  size: number
  /** How the content was checked: the sha256 of a large file, or the git blob id of a small one. */
  verified: 'sha256' | 'git-blob' | 'size'
  resumed: boolean
}

interface Sibling {
  rfilename: string
  size?: number
  blobId?: string
  lfs?: { sha256?: string; size?: number }
}

const HUB_REPO = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * Downloads a model repository's ONNX graph and tokenizer files into `target` from a hub laid out
 * like the usual one (`/api/models/<repo>/revision/<rev>` lists the files with sizes and hashes,
 * `/<repo>/resolve/<rev>/<file>` serves them). A file is written as `<file>.part` and renamed
 * only once its size and hash match, so a stopped pull resumes from the bytes it has (an HTTP
 * range request) and a corrupt file is never taken for a model.
 */
export async function pullModelFiles(repo: string, target: string, options: PullOptions): Promise<{ onnxFile: string; files: PulledFile[]; revision: string }> {
  if (!HUB_REPO.test(repo)) throw new UsageError('invalid_hub_id', `"${repo}" is not a hub model id.`, { hint: 'Use owner/name, e.g. sentence-transformers/all-MiniLM-L6-v2' })
  if (options.onnxFile !== undefined) assertInsideFolder(target, options.onnxFile)
  const revision = options.revision ?? 'main'
  const hub = options.hub.replace(/\/+$/, '')
  const listing = await hubFetch(`${hub}/api/models/${repo}/revision/${encodeURIComponent(revision)}?blobs=true`, hub, options.signal)
  if (listing.status === 404 || listing.status === 401) throw new NotFoundError('model_not_on_hub', `The hub has no model ${repo} at ${revision}.`)
  if (!listing.ok) throw new ProviderError('model_hub_error', `The hub answered ${listing.status} for ${repo}.`)
  const info = (await listing.json()) as { siblings?: Sibling[]; sha?: string }
  const siblings = new Map((info.siblings ?? []).map((s) => [s.rfilename, s]))
  const onnxFile = options.onnxFile ?? ONNX_CANDIDATES.find((name) => siblings.has(name))
  if (onnxFile === undefined || !siblings.has(onnxFile)) {
    throw new ValidationError('model_has_no_onnx', `${repo} has no ONNX file${options.onnxFile ? ` ${options.onnxFile}` : ''}.`, {
      hint: `Looked for ${ONNX_CANDIDATES.join(', ')}; pick one with --file.`,
    })
  }
  if (!siblings.has('tokenizer.json')) throw new ValidationError('model_has_no_tokenizer', `${repo} has no tokenizer.json.`)
  const wanted = [onnxFile, `${onnxFile}_data`, `${onnxFile}.data`, ...SIDE_FILES].filter((name) => siblings.has(name))
  const files: PulledFile[] = []
  for (const name of wanted) {
    files.push(await pullFile(`${hub}/${repo}/resolve/${encodeURIComponent(revision)}/${name}`, hub, join(target, name), name, siblings.get(name)!, options))
  }
  return { onnxFile, files, revision: info.sha ?? revision }
}

async function pullFile(url: string, hub: string, path: string, name: string, sibling: Sibling, options: PullOptions): Promise<PulledFile> {
  const size = sibling.lfs?.size ?? sibling.size ?? null
  await mkdir(dirname(path), { recursive: true })
  const existing = await stat(path).catch(() => null)
  if (existing !== null && (size === null || existing.size === size) && (await matches(path, sibling))) {
    return { path: name, size: existing.size, verified: verification(sibling), resumed: false }
  }
  const part = `${path}.part`
  const have = (await stat(part).catch(() => null))?.size ?? 0
  const resumeFrom = size !== null && have > 0 && have < size ? have : 0
  if (resumeFrom === 0) await rm(part, { force: true })
  const response = await hubFetch(url, hub, options.signal, resumeFrom > 0 ? { Range: `bytes=${resumeFrom}-` } : {})
  if (!response.ok || response.body === null) throw new ProviderError('model_hub_error', `The hub answered ${response.status} for ${name}.`)
  // A server that ignores the range sends the whole file again.
  const append = resumeFrom > 0 && response.status === 206
  let received = append ? resumeFrom : 0
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length
      options.onProgress?.({ file: name, received, size })
      done(null, chunk)
    },
  })
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), count, createWriteStream(part, { flags: append ? 'a' : 'w' }), { signal: options.signal })
  const written = (await stat(part)).size
  if (size !== null && written !== size) {
    if (written > size) await rm(part, { force: true })
    throw new ProviderError('model_download_incomplete', `${name}: received ${written} of ${size} bytes.`, { hint: 'Run the same pull again; it resumes.' })
  }
  if (!(await matches(part, sibling))) {
    await rm(part, { force: true })
    throw new ValidationError('model_hash_mismatch', `${name} does not match the hash the hub lists; it was not kept.`, {
      hint: 'Pull again; if it keeps failing, the hub or a proxy serves a different file.',
    })
  }
  await rename(part, path)
  return { path: name, size: written, verified: verification(sibling), resumed: append }
}

function verification(sibling: Sibling): PulledFile['verified'] {
  if (sibling.lfs?.sha256) return 'sha256'
  if (sibling.blobId) return 'git-blob'
  return 'size'
}

async function matches(path: string, sibling: Sibling): Promise<boolean> {
  const expectedSha256 = sibling.lfs?.sha256
  if (expectedSha256) return (await digest(path, 'sha256')) === expectedSha256.toLowerCase()
  if (sibling.blobId) {
    const size = (await stat(path)).size
    return (await digest(path, 'sha1', `blob ${size}\0`)) === sibling.blobId.toLowerCase()
  }
  return true
}

async function digest(path: string, algorithm: 'sha256' | 'sha1', header = ''): Promise<string> {
  const hash = createHash(algorithm)
  if (header !== '') hash.update(header)
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** A request to the hub; a network that cannot reach it is said in one line. */
async function hubFetch(url: string, hub: string, signal: AbortSignal | undefined, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await fetch(url, { headers: { 'user-agent': 'brain', ...headers }, signal, redirect: 'follow' })
  } catch (err) {
    if (signal?.aborted) throw err
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message
    throw new NotAvailableError('model_hub_unreachable', `Cannot reach the model hub at ${hub} (${cause}): offline, or the network does not allow it.`, {
      hint: 'Copy the model folder here another way and run brain models add <dir>.',
    })
  }
}
