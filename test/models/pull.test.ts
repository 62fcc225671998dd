// test-runner: shares a process
import t from 'tap'
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pullModel, requireManifest } from '../../src/models/index.js'
import { embedWithModel } from '../../src/models/onnx-model.js'
import type { engineTest } from '../helpers/engines.js'
import { expectedVector, writeTinyEmbedder } from './tiny-models.js'

type Tap = Parameters<Parameters<typeof engineTest>[2]>[0]

interface HubFile {
  path: string
  bytes: Buffer
  /** Served instead of `bytes` (a corrupt mirror); the listing keeps the real hash. */
  served?: Buffer
}

/** A hub on 127.0.0.1: the model API listing with sizes and hashes, and resolve/ with ranges. */
async function startHub(t: Tap, repo: string, files: HubFile[], options: { cutFirstDownloadOf?: string } = {}) {
  const ranges: Array<string | undefined> = []
  const downloads = new Map<string, number>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://hub')
    if (url.pathname === `/api/models/${repo}/revision/main`) {
      const siblings = files.map((f) =>
        f.path.endsWith('.onnx')
          ? { rfilename: f.path, size: f.bytes.length, lfs: { sha256: createHash('sha256').update(f.bytes).digest('hex'), size: f.bytes.length } }
          : { rfilename: f.path, size: f.bytes.length, blobId: createHash('sha1').update(`blob ${f.bytes.length}\0`).update(f.bytes).digest('hex') },
      )
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ id: repo, sha: 'abc123', siblings }))
      return
    }
    const prefix = `/${repo}/resolve/main/`
    const file = url.pathname.startsWith(prefix) ? files.find((f) => f.path === decodeURIComponent(url.pathname.slice(prefix.length))) : undefined
    if (file === undefined) {
      res.writeHead(404).end()
      return
    }
    const body = file.served ?? file.bytes
    const count = (downloads.get(file.path) ?? 0) + 1
    downloads.set(file.path, count)
    if (file.path.endsWith('.onnx')) ranges.push(req.headers.range)
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')
    if (range) {
      const from = Number(range[1])
      res.writeHead(206, { 'content-length': body.length - from, 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` })
      res.end(body.subarray(from))
      return
    }
    res.writeHead(200, { 'content-length': body.length })
    if (options.cutFirstDownloadOf === file.path && count === 1) {
      // Half the file, then the connection drops.
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => res.socket?.destroy(), 50))
      return
    }
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ranges, downloads }
}

async function folderFiles(dir: string): Promise<HubFile[]> {
  const out: HubFile[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const full = join(entry.parentPath, entry.name)
    out.push({ path: relative(dir, full), bytes: await readFile(full) })
  }
  return out
}

async function setup(t: Tap) {
  const root = await mkdtemp(join(tmpdir(), 'brain-pull-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const model = await writeTinyEmbedder(join(root, 'upstream'), { dimensions: 16, seed: 9 })
  return { root, model, home: join(root, 'home'), files: await folderFiles(model.dir) }
}

t.test('pull downloads a model laid out like the hub, checks every file, and registers it', async (t) => {
  const { model, home, files } = await setup(t)
  const hub = await startHub(t, 'acme/tiny-embedder', files)
  const seen = new Set<string>()
  const { manifest, files: pulled } = await pullModel(home, 'acme/tiny-embedder', { hub: hub.url, onProgress: (p) => seen.add(p.file) })
  t.equal(manifest.id, 'tiny-embedder')
  t.equal(manifest.path, join(home, 'models', 'tiny-embedder'), 'into $BRAIN_HOME/models/<id>/')
  t.same(manifest.origin, { kind: 'hub', hub: hub.url, repo: 'acme/tiny-embedder', revision: 'abc123' })
  t.equal(manifest.dimensions, 16)
  t.same(
    pulled.map((f) => [f.path, f.verified]),
    [
      ['onnx/model.onnx', 'sha256'],
      ['tokenizer.json', 'git-blob'],
      ['tokenizer_config.json', 'git-blob'],
      ['modules.json', 'git-blob'],
      ['1_Pooling/config.json', 'git-blob'],
    ],
    'the ONNX graph by sha256, the small files by git blob id',
  )
  t.ok(seen.has('onnx/model.onnx'), 'progress per file')
  t.same(await requireManifest(home, 'tiny-embedder'), manifest)
  const [vector] = await embedWithModel(manifest, ['zebra lion'])
  const expected = expectedVector(model, 'zebra lion')
  t.ok(Math.max(...expected.map((v, i) => Math.abs(v - vector![i]!))) < 1e-5, 'the pulled model embeds as the original')
  await pullModel(home, 'acme/tiny-embedder', { hub: hub.url })
  t.equal(hub.downloads.get('onnx/model.onnx'), 1, 'a second pull keeps files that still match')
})

t.test('an interrupted download resumes from the bytes it has', async (t) => {
  const { home, files } = await setup(t)
  const hub = await startHub(t, 'acme/tiny', files, { cutFirstDownloadOf: 'onnx/model.onnx' })
  await t.rejects(pullModel(home, 'acme/tiny', { hub: hub.url }), 'the dropped connection fails the first pull')
  const part = join(home, 'models', 'tiny', 'onnx', 'model.onnx.part')
  const have = (await stat(part)).size
  t.ok(have > 0, `a partial file is kept (${have} bytes)`)
  const { files: pulled, manifest } = await pullModel(home, 'acme/tiny', { hub: hub.url })
  t.same(hub.ranges, [undefined, `bytes=${have}-`], 'the second pull asks for the rest only')
  t.equal(pulled.find((f) => f.path === 'onnx/model.onnx')?.resumed, true)
  const onnx = files.find((f) => f.path === 'onnx/model.onnx')!
  t.same(await readFile(join(manifest.path, 'onnx/model.onnx')), onnx.bytes, 'the file is whole')
  await t.rejects(stat(part), { code: 'ENOENT' }, 'and the partial file is gone')
})

t.test('a file that does not match its listed hash is refused and not kept', async (t) => {
  const { home, files } = await setup(t)
  const onnx = files.find((f) => f.path === 'onnx/model.onnx')!
  onnx.served = Buffer.from(onnx.bytes)
  onnx.served[onnx.served.length - 1] ^= 0xff
  const hub = await startHub(t, 'acme/tiny', files)
  await t.rejects(pullModel(home, 'acme/tiny', { hub: hub.url }), { code: 'model_hash_mismatch' })
  const dir = join(home, 'models', 'tiny', 'onnx')
  t.same(await readdir(dir), [], 'neither the file nor a partial copy is left')
  await t.rejects(requireManifest(home, 'tiny'), { code: 'model_not_found' }, 'and nothing is registered')
})

t.test('an unreachable hub is one clear error; an unknown repository another', async (t) => {
  const { home, files } = await setup(t)
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const port = (closed.address() as AddressInfo).port
  await new Promise<void>((resolve) => closed.close(() => resolve()))
  await t.rejects(pullModel(home, 'acme/tiny', { hub: `http://127.0.0.1:${port}` }), {
    code: 'model_hub_unreachable',
    message: /Cannot reach the model hub at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
  })
  const hub = await startHub(t, 'acme/tiny', files)
  await t.rejects(pullModel(home, 'acme/other', { hub: hub.url }), { code: 'model_not_on_hub' })
  await t.rejects(pullModel(home, 'not a repo', { hub: hub.url }), { code: 'invalid_hub_id' })
})
