// test-runner: shares a process
import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addModel, requireManifest, embeddingProviderOfModel } from '../../src/models/index.js'
import { embedWithModel, scoreWithModel } from '../../src/models/onnx-model.js'
import { loadConfig } from '../../src/config/index.js'
import type { engineTest } from '../helpers/engines.js'
import { expectedVector, writeTinyEmbedder, writeTinyReranker } from './tiny-models.js'

type Checks = Parameters<Parameters<typeof engineTest>[2]>[0]

async function scratch(t: Checks): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'brain-models-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}
function close(t: Checks, actual: readonly number[], expected: readonly number[], message: string): void {
  t.equal(actual.length, expected.length, `${message}: length`)
  const worst = Math.max(...expected.map((v, i) => Math.abs(v - actual[i]!)))
  t.ok(worst < 1e-5, `${message} (largest difference ${worst})`)
}

t.test('a folder in the sentence-transformers layout is read, probed and registered', async (t) => {
  const root = await scratch(t)
  const model = await writeTinyEmbedder(join(root, 'Tiny-E5'), { dimensions: 8, prompts: { query: 'query: ', passage: 'passage: ' } })
  const home = join(root, 'home')
  const manifest = await addModel(home, model.dir)
  t.equal(manifest.id, 'tiny-e5', 'the id comes from the folder name')
  t.equal(manifest.kind, 'embedder')
  t.equal(manifest.onnxFile, 'onnx/model.onnx')
  t.equal(manifest.pooling, 'mean', 'from 1_Pooling/config.json')
  t.equal(manifest.normalize, true, 'modules.json lists a Normalize step')
  t.equal(manifest.queryPrefix, 'query: ', 'prompts from config_sentence_transformers.json')
  t.equal(manifest.passagePrefix, 'passage: ')
  t.equal(manifest.maxTokens, 64, 'from tokenizer_config.json')
  t.equal(manifest.dimensions, 8, 'the probe learned the vector size')
  t.same(await requireManifest(home, 'tiny-e5'), manifest, 'kept in $BRAIN_HOME/models/<id>/brain-model.json')
})

t.test('mean pooling with normalisation, and CLS pooling without, match the graph computed by hand', async (t) => {
  const root = await scratch(t)
  const home = join(root, 'home')
  const mean = await writeTinyEmbedder(join(root, 'mean'), { seed: 3 })
  const cls = await writeTinyEmbedder(join(root, 'cls'), { seed: 5, pooling: 'cls', normalize: false })
  const meanManifest = await addModel(home, mean.dir)
  const clsManifest = await addModel(home, cls.dir)
  t.equal(clsManifest.pooling, 'cls')
  t.equal(clsManifest.normalize, false)
  const texts = ['zebra lion', 'the garden grows tomato and basil in the sun', 'postgres']
  const vectors = await embedWithModel(meanManifest, texts)
  texts.forEach((text, i) => close(t, vectors[i]!, expectedVector(mean, text), `mean pooling of "${text}" (padded in one batch)`))
  t.ok(Math.abs(Math.hypot(...vectors[0]!) - 1) < 1e-5, 'unit length')
  const clsVectors = await embedWithModel(clsManifest, texts)
  close(t, clsVectors[1]!, expectedVector(cls, texts[1]!, { pooling: 'cls', normalize: false }), 'CLS pooling, not normalised')
})

t.test('query and passage prefixes are put before the text, and vectors are zero-padded to 1536', async (t) => {
  const root = await scratch(t)
  const home = join(root, 'home')
  const model = await writeTinyEmbedder(join(root, 'e5'), { prompts: { query: 'query: ', passage: 'passage: ' } })
  await addModel(home, model.dir, { id: 'e5' })
  const provider = await embeddingProviderOfModel(home, 'e5', loadConfig({ env: { BRAIN_HOME: home } }).embedding)
  t.equal(provider.model, 'onnx:e5', 'the vector tag names the model')
  const [asQuery] = await provider.embed(['zebra lion'], { purpose: 'query' })
  const [asPassage] = await provider.embed(['zebra lion'])
  t.equal(asQuery!.length, 1536)
  close(t, asQuery!.slice(0, 8), expectedVector(model, 'query : zebra lion'), 'the query prefix')
  close(t, asPassage!.slice(0, 8), expectedVector(model, 'passage : zebra lion'), 'the passage prefix, the default')
  t.ok(
    asQuery!.slice(8).every((v) => v === 0),
    'zeros past the native size',
  )
  const overridden = await addModel(home, model.dir, { id: 'plain', queryPrefix: '', passagePrefix: '' })
  t.equal(overridden.queryPrefix, '', 'flags override what the folder says')
})

t.test('a cross-encoder scores (query, passage) pairs as its graph says, padding or not', async (t) => {
  const root = await scratch(t)
  const home = join(root, 'home')
  const reranker = await writeTinyReranker(join(root, 'ce'))
  const manifest = await addModel(home, reranker.dir, { kind: 'reranker' })
  t.equal(manifest.kind, 'reranker')
  t.equal(manifest.onnxFile, 'model.onnx')
  const passages = ['zebra', 'the lion and the giraffe of the savanna', 'zebra zebra lion', 'river']
  const scores = await scoreWithModel(manifest, 'zebra', passages)
  passages.forEach((p, i) => t.ok(Math.abs(scores[i]! - reranker.score('zebra', p)) < 1e-4, `score of "${p}"`))
  t.ok(scores[2]! > scores[0]! && scores[0]! > scores[1]!, 'denser in the favourite word scores higher')
})

t.test('broken folders are refused with their own codes, and nothing is registered', async (t) => {
  const root = await scratch(t)
  const home = join(root, 'home')
  const model = await writeTinyEmbedder(join(root, 'm'))
  await rm(join(model.dir, 'tokenizer.json'))
  await t.rejects(addModel(home, model.dir), { code: 'model_folder_incomplete' })
  const noOnnx = await writeTinyEmbedder(join(root, 'n'))
  await rm(join(noOnnx.dir, 'onnx'), { recursive: true })
  await t.rejects(addModel(home, noOnnx.dir), { code: 'model_folder_incomplete' })
  const garbage = await writeTinyEmbedder(join(root, 'g'))
  await writeFile(join(garbage.dir, 'onnx', 'model.onnx'), 'not a graph')
  await t.rejects(addModel(home, garbage.dir), { code: 'model_onnx_invalid' })
  const wide = await writeTinyEmbedder(join(root, 'wide'), { dimensions: 1600 })
  await t.rejects(addModel(home, wide.dir), { code: 'model_too_many_dimensions' })
  await t.rejects(addModel(home, model.dir, { id: 'Bad Id' }), { code: 'invalid_model_id' })
  await t.rejects(addModel(home, wide.dir, { onnxFile: '../m/onnx/model.onnx' }), { code: 'model_file_outside_folder' }, '--file stays inside the folder')
  await t.rejects(requireManifest(home, 'm'), { code: 'model_not_found' })
})
