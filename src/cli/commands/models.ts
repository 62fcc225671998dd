import { Command, Option } from 'clipanion'
import type { ModelKind, ModelListing, ModelManifest, Pooling, PullProgress, SwitchResult } from '../../models/index.js'
import { UsageError } from '../../errors/index.js'
import { silentLogger } from '../../util/logger.js'
import { BrainCommand } from '../brain-command.js'
import { isTerminal } from '../output.js'

function formatListing(models: readonly ModelListing[]): string {
  return models
    .map((m) => {
      const marks = [m.active ? 'active' : null, m.next ? 'switching to' : null, m.reranker ? 'search.reranker' : null].filter(Boolean).join(', ')
      const size = m.dimensions === null ? '' : ` ${m.dimensions}d`
      const vectors = m.kind === 'embedder' ? ` ${m.vectors} vectors` : ''
      return `${m.active || m.reranker ? '*' : ' '} ${m.id} (${m.kind}${size})${vectors}${marks ? ` [${marks}]` : ''}${m.path ? `  ${m.path}` : ''}`
    })
    .join('\n')
}

function formatManifest(manifest: ModelManifest, verb: string): string {
  const lines = [`${verb} ${manifest.id}: ${manifest.kind}${manifest.dimensions === null ? '' : `, ${manifest.dimensions} dimensions`}, ${manifest.onnxFile}`]
  if (manifest.kind === 'embedder') {
    lines.push(`pooling ${manifest.pooling}, ${manifest.normalize ? 'normalised' : 'not normalised'}, at most ${manifest.maxTokens} tokens`)
    if (manifest.queryPrefix || manifest.passagePrefix) lines.push(`query prefix ${JSON.stringify(manifest.queryPrefix)}, passage prefix ${JSON.stringify(manifest.passagePrefix)}`)
    lines.push(`use it: brain models use ${manifest.id}`)
  } else {
    lines.push(`use it: brain config set search.reranker ${manifest.id}`)
  }
  return lines.join('\n')
}

const KINDS: readonly ModelKind[] = ['embedder', 'reranker']
const POOLINGS: readonly Pooling[] = ['mean', 'cls', 'none']

abstract class ModelFolderCommand extends BrainCommand {
  id = Option.String('--id', { description: 'The model id (default: from the folder or hub name)' })
  kind = Option.String('--kind', { description: 'embedder (default) or reranker' })
  file = Option.String('--file', { description: 'The ONNX file in the folder (default model.onnx, onnx/model.onnx, then quantised variants)' })
  pooling = Option.String('--pooling', { description: 'mean, cls or none (default: 1_Pooling/config.json, else mean)' })
  normalize = Option.Boolean('--normalize', { description: 'L2-normalise vectors (default: modules.json, else on); --no-normalize turns it off' })
  queryPrefix = Option.String('--query-prefix', { description: 'Text put before a search query, e.g. "query: "' })
  passagePrefix = Option.String('--passage-prefix', { description: 'Text put before stored text, e.g. "passage: "' })
  maxTokens = Option.String('--max-tokens', { description: 'Longest input in tokens (default: tokenizer_config.json, else 512)' })

  protected folderOptions() {
    if (this.kind !== undefined && !KINDS.includes(this.kind as ModelKind)) throw new UsageError('invalid_model_kind', `--kind is embedder or reranker, not "${this.kind}".`)
    if (this.pooling !== undefined && !POOLINGS.includes(this.pooling as Pooling)) throw new UsageError('invalid_pooling', `--pooling is mean, cls or none, not "${this.pooling}".`)
    const maxTokens = this.maxTokens === undefined ? undefined : Number(this.maxTokens)
    if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 2))
      throw new UsageError('invalid_max_tokens', `--max-tokens must be an integer of at least 2, not "${this.maxTokens}".`)
    return {
      id: this.id,
      kind: this.kind as ModelKind | undefined,
      onnxFile: this.file,
      pooling: this.pooling as Pooling | undefined,
      normalize: this.normalize,
      queryPrefix: this.queryPrefix,
      passagePrefix: this.passagePrefix,
      maxTokens,
    }
  }
}

export class ModelsListCommand extends BrainCommand {
  static override paths = [['models', 'list'], ['models']]
  static override usage = Command.Usage({ description: 'List the shipped model and the local models this brain knows, with the active one' })

  protected async run(): Promise<number> {
    const { listModels, RERANKER_KEY } = await import('../../models/index.js')
    const { readConfigValue } = await import('../../config/index.js')
    const models = await this.withBrain(async ({ db, config }) => listModels(db, config.home, await readConfigValue(db, RERANKER_KEY)))
    this.print({ models }, () => formatListing(models))
    return 0
  }
}

export class ModelsAddCommand extends ModelFolderCommand {
  static override paths = [['models', 'add']]
  static override usage = Command.Usage({
    description: 'Register a local model folder (ONNX graph and tokenizer.json) as an embedder or a re-ranker',
    details:
      'The folder stays where it is. brain reads its settings (pooling from 1_Pooling/config.json, normalisation from modules.json, prompts from config_sentence_transformers.json), runs it once to check it and learn its vector size, and lists it in `brain models list`. Flags override what the folder says.',
    examples: [
      ['An embedder with e5-style prefixes', '$0 models add ~/models/multilingual-e5-small --query-prefix "query: " --passage-prefix "passage: "'],
      ['A cross-encoder re-ranker', '$0 models add ~/models/ms-marco-MiniLM-L-6-v2 --kind reranker'],
    ],
  })

  folder = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { addModel } = await import('../../models/index.js')
    const config = await this.loadConfig()
    const manifest = await addModel(config.home, this.resolvePath(this.folder), this.folderOptions())
    this.print(manifest, () => formatManifest(manifest, 'added'))
    return 0
  }
}

export class ModelsPullCommand extends ModelFolderCommand {
  static override paths = [['models', 'pull']]
  static override usage = Command.Usage({
    description: "Download a model's ONNX graph and tokenizer from the model hub into $BRAIN_HOME/models/ and register it",
    details:
      'Sizes and hashes are checked against what the hub lists; a file that does not match is not kept. An interrupted pull resumes where it stopped when run again. BRAIN_MODEL_HUB (or HF_ENDPOINT) names another hub or a mirror.',
    examples: [
      ['A small English embedder', '$0 models pull sentence-transformers/all-MiniLM-L6-v2'],
      ['A re-ranker', '$0 models pull cross-encoder/ms-marco-MiniLM-L-6-v2 --kind reranker'],
    ],
  })

  repo = Option.String({ required: true })
  revision = Option.String('--revision', { description: 'A branch, tag or commit (default main)' })

  protected async run(): Promise<number> {
    const { pullModel } = await import('../../models/index.js')
    const config = await this.loadConfig()
    const stderr = this.context.stderr
    const terminal = isTerminal(stderr)
    let lastFile = ''
    const onProgress = (p: PullProgress): void => {
      if (terminal) {
        const size = p.size === null ? '' : ` of ${mib(p.size)}`
        stderr.write(`\r\u001b[2Kbrain models pull: ${p.file} ${mib(p.received)}${size}`)
      } else if (p.file !== lastFile) {
        stderr.write(`brain models pull: ${p.file}\n`)
      }
      lastFile = p.file
    }
    const { manifest, files } = await pullModel(config.home, this.repo, { ...this.folderOptions(), hub: config.models.hubUrl, revision: this.revision, onProgress, signal: this.context.signal })
    if (terminal) stderr.write('\r\u001b[2K')
    this.print({ ...manifest, files }, () => formatManifest(manifest, `pulled ${files.length} files;`))
    return 0
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

export class ModelsUseCommand extends BrainCommand {
  static override paths = [['models', 'use']]
  static override usage = Command.Usage({
    description: "Switch the brain's embedding model: re-embed every chunk with it in a switch-model job, then make it active",
    details:
      'Until every chunk has a vector of the new model, search keeps using the old vectors, so nothing stops working during the switch; the new vectors replace them in one transaction. The command waits for the job and shows progress with an estimate; --no-wait only submits it (a worker or the resident service runs it). `brain models use use-lite` goes back to the shipped model. --cancel drops a switch that has not finished.',
    examples: [
      ['Switch to a registered model', '$0 models use bge-small-en-v1.5'],
      ['Submit the switch and return', '$0 models use bge-small-en-v1.5 --no-wait'],
      ['Drop an unfinished switch', '$0 models use --cancel'],
    ],
  })

  model = Option.String({ required: false })
  wait = Option.Boolean('--wait', true, { description: 'Wait for the switch to finish (default); --no-wait submits it and returns' })
  cancel = Option.Boolean('--cancel', false, { description: 'Drop the switch in progress; the active model stays' })

  protected async run(): Promise<number> {
    const models = await import('../../models/index.js')
    if (this.cancel) {
      const dropped = await this.withBrain(({ db }) => models.cancelModelSwitch(db))
      this.print({ cancelled: dropped }, () => (dropped === null ? 'No switch in progress.' : `Dropped the switch to ${dropped}; the active model stays.`))
      return 0
    }
    if (this.model === undefined) throw new UsageError('models_use_requires_id', 'Name the model to switch to.', { hint: 'brain models list, then brain models use <id>' })
    const id = this.model
    return this.withBrain(async (brain) => {
      if (brain.config.embedding.provider !== 'local') {
        throw new UsageError('models_need_local_provider', 'Local models replace the local embedding provider; this brain embeds with openai.', {
          hint: 'Set BRAIN_EMBEDDING_PROVIDER=local (or embedding.provider in config.json).',
        })
      }
      // Fails here, before anything is queued, when the model is unknown or not an embedder.
      await models.embeddingProviderOfModel(brain.config.home, id, brain.config.embedding)
      if ((await models.activeModelId(brain.db)) === id && (await models.nextModelId(brain.db)) === null) {
        this.print({ model: id, active: true, switched: false }, () => `${id} is already the active model.`)
        return 0
      }
      await models.beginModelSwitch(brain.db, id)
      if (!this.wait) {
        const { openQueue } = await import('../../queue/index.js')
        const queue = await openQueue({ db: brain.db, config: brain.config, logger: silentLogger })
        try {
          const job = await queue.submit('switch-model', { model: id })
          this.print(
            { model: id, job_id: job.id, status: job.status },
            () => `Switching to ${id} in job ${job.id}; search uses the current model until it is done.\nwatch it: brain jobs get ${job.id}`,
          )
        } finally {
          await queue.close()
        }
        return 0
      }
      const { runJob } = await import('../job-runner.js')
      const result = (await runJob(brain, this.context.stderr, 'switch-model', { model: id }, `models use ${id}`, this.context.signal)) as SwitchResult
      this.print(result, () => `Switched from ${result.from} to ${result.to}: ${result.embedded + result.embedded_after} chunks embedded in ${(result.duration_ms / 1000).toFixed(1)} s.`)
      return 0
    })
  }
}
