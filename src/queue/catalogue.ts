import * as z from 'zod'
import { UsageError, ValidationError, type BrainError } from '../errors/index.js'
import { AUTOPILOT_PHASES, selectPhases } from './autopilot-phases.js'

/**
 * The job catalogue: for every job name, written here once, the schema of its data and the error
 * a refused payload raises; and the same for the autopilot phases that run as handlers of their
 * own. The same entry checks a submission (at compile time through JobData, at run time in
 * submit) and parses the data a handler receives (defineJob takes the schema from here, by the
 * handler's name), so the two can no longer disagree.
 */

/** The first thing a job's data schema refused: where, and what it says. */
export interface DataProblem {
  /** The data key, dotted for nested ones (`event.content`); empty for the whole object. */
  key: string
  message: string
}

export interface JobSpec<S extends z.ZodType> {
  data: S
  invalid: (problem: DataProblem, data: Record<string, unknown>) => BrainError
}

const spec = <S extends z.ZodType>(s: JobSpec<S>): JobSpec<S> => s

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined)
const textOrNull = z
  .string()
  .nullish()
  .transform((value) => value ?? null)
const nonEmptyText = z
  .string()
  .refine((value) => value.trim() !== '')
  .nullish()
  .transform((value) => value ?? undefined)
const flag = z
  .boolean()
  .optional()
  .transform((value) => value === true)
/** A source id: a non-empty string when given. */
const sourceId = z.string().min(1).optional()
const stringList = z
  .unknown()
  .optional()
  .transform((value) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []))

/** What the envelope adds to every job's data (whether it came from an untrusted caller), so strict schemas accept it. */
const ENVELOPE_KEYS = { untrusted_payload: z.boolean().optional() }

export const JOB_CATALOGUE = {
  // The directory may come as `repo` (CLI), `repoPath` (autopilot cycle) or `dir`; each means the same thing.
  sync: spec({
    data: z
      .looseObject({ sourceId: nonEmptyText, repo: nonEmptyText, repoPath: nonEmptyText, dir: nonEmptyText, all: flag, full: flag, dryRun: flag, noEmbed: flag, noExtract: flag })
      .transform((d) => ({ sourceId: d.sourceId, all: d.all, repo: d.repo ?? d.repoPath ?? d.dir, full: d.full, dryRun: d.dryRun, noEmbed: d.noEmbed, noExtract: d.noExtract })),
    invalid: (problem, raw) =>
      new UsageError('invalid_sync_data', `Sync job data.${problem.key} must be ${typeof raw[problem.key] === 'string' || problem.key === 'sourceId' ? 'a non-empty string' : 'true or false'}.`),
  }),
  // `stale` (default): chunks without an embedding. `all`: every chunk, page by page.
  embed: spec({
    data: z.looseObject({
      mode: z
        .enum(['stale', 'all'])
        .nullish()
        .transform((mode) => mode ?? 'stale'),
    }),
    invalid: (_problem, raw) => new ValidationError('embed_invalid_mode', `Unknown embed mode ${JSON.stringify(raw.mode)}.`, { hint: 'Use {"mode": "stale"} or {"mode": "all"}.' }),
  }),
  extract: spec({
    data: z.looseObject({
      /** Pages to derive links for; all pages when absent, nothing when empty. */
      slugs: z.array(z.string()).optional(),
      sourceId,
    }),
    invalid: (problem) =>
      problem.key === 'sourceId'
        ? new ValidationError('extract_invalid_source', 'extract expects `sourceId` to be a source id.', { hint: 'e.g. {"sourceId": "default"}' })
        : new ValidationError('extract_invalid_slugs', 'extract expects `slugs` to be a list of page slugs.', { hint: 'e.g. {"slugs": ["notes/design"]}' }),
  }),
  ingest_capture: spec({
    // The event itself is checked by validateIngestionEvent, the one reader of events for every entry path.
    data: z.looseObject({ event: z.unknown().refine((event) => event !== undefined) }),
    invalid: () => new ValidationError('invalid_ingestion_event', 'The ingest_capture job has no event.', { hint: 'Submit {"event": {content_type, content, source_id}}.' }),
  }),
  // A phase name outside AUTOPILOT_PHASES is refused by selectPhases, with its own code and hint.
  'autopilot-cycle': spec({
    data: z.strictObject({
      ...ENVELOPE_KEYS,
      phase: z.string().optional(),
      phases: z.array(z.string()).optional(),
      /** The brain directory to sync and audit; the configured one when absent. */
      dir: z.string().min(1).optional(),
    }),
    invalid(problem, raw) {
      if (problem.key === 'phase' || problem.key.startsWith('phases')) selectPhases(raw)
      return new ValidationError('invalid_autopilot_job', `Autopilot job data${problem.key ? `.${problem.key}` : ''}: ${problem.message}`, {
        hint: `e.g. {"phases": ["${AUTOPILOT_PHASES[0]}", "${AUTOPILOT_PHASES[1]}"], "dir": "/abs/brain"}`,
      })
    },
  }),
  // The shell handler reads cmd, argv, cwd and env once the job may run at all: a disabled or
  // untrusted shell job is refused for that before its data is looked at.
  shell: spec({
    data: z.record(z.string(), z.unknown()),
    invalid: (problem) => new ValidationError('invalid_shell_job', `Shell job data: ${problem.message}`),
  }),
  import: spec({
    data: z.looseObject({
      path: z.string().min(1),
      strategy: z.unknown().optional(),
      include: stringList,
      exclude: stringList,
      sourceId: sourceId.transform((id) => id ?? 'default'),
      noEmbed: flag,
    }),
    invalid: (problem) =>
      problem.key === 'path' || problem.key === ''
        ? new UsageError('import_requires_path', 'The import job needs data.path, the folder to import.')
        : new UsageError('invalid_import_job', `The import job's data.${problem.key} is not valid: ${problem.message}`),
  }),
  capture: spec({
    data: z.looseObject({
      content: z.string().refine((text) => text.trim() !== ''),
      slug: optionalText,
      type: optionalText,
      source: optionalText,
      captured_at: optionalText.refine((raw) => raw === undefined || !Number.isNaN(new Date(raw).getTime()), 'is not a date'),
      noEmbed: flag,
    }),
    invalid(problem, raw) {
      if (problem.key === 'content') return new UsageError('capture_empty', 'The capture job needs data.content, the text to capture.')
      if (problem.key === 'captured_at' && typeof raw.captured_at === 'string') return new UsageError('invalid_capture_job', `data.captured_at is not a date: ${raw.captured_at}`)
      return new UsageError('invalid_capture_job', `The capture job's data.${problem.key} must be a string.`)
    },
  }),
  'switch-model': spec({
    data: z.looseObject({ model: z.string().trim().min(1).max(80) }),
    invalid: (problem) => new ValidationError('switch_model_invalid', `The switch-model job needs {"model": "<id>"} (${problem.message}).`, { hint: 'brain models use <id>' }),
  }),
  capture_transcript: spec({
    data: z.looseObject({
      transcript_path: z.string().min(1),
      session_id: textOrNull,
      harness: z.string().min(1).default('claude-code'),
      cwd: textOrNull,
      source: textOrNull,
      noEmbed: flag,
    }),
    invalid(problem) {
      if (problem.key === 'transcript_path') return new UsageError('invalid_capture_transcript_job', 'The capture_transcript job needs data.transcript_path, the absolute path of the session log.')
      return new UsageError('invalid_capture_transcript_job', `The capture_transcript job's data.${problem.key} is not valid: ${problem.message}`)
    },
  }),
} satisfies Record<string, JobSpec<z.ZodType>>

/** The autopilot phases that run as handlers of their own (workers/<phase>.ts), never submitted as jobs. */
const PHASE_CATALOGUE = {
  // With `force` (the phase asked for on its own) it backs up whatever the interval says.
  backup: spec({
    data: z.strictObject({ ...ENVELOPE_KEYS, force: flag }),
    invalid: (problem) => new ValidationError('invalid_backup_job', `backup data.${problem.key}: ${problem.message}`),
  }),
  'frontmatter-audit': spec({
    data: z.strictObject({ ...ENVELOPE_KEYS, sourceId }),
    invalid: (problem) => new ValidationError('invalid_frontmatter_audit_job', `frontmatter-audit data.${problem.key}: ${problem.message}`),
  }),
  'reconcile-links': spec({
    data: z.strictObject({ ...ENVELOPE_KEYS, dryRun: flag }),
    invalid: (problem) => new ValidationError('invalid_reconcile_job', `reconcile-links data.${problem.key}: ${problem.message}`),
  }),
} satisfies Record<string, JobSpec<z.ZodType>>

/** Every handler's entry: the jobs and the phases. */
export const HANDLER_CATALOGUE = { ...JOB_CATALOGUE, ...PHASE_CATALOGUE }

/** A name a handler runs as: a job name or a phase of its own. */
export type HandlerName = keyof typeof HANDLER_CATALOGUE

/** The data a handler of this name receives, as its schema parsed it. */
export type HandlerData<N extends HandlerName> = z.output<(typeof HANDLER_CATALOGUE)[N]['data']>

/** A job name the catalogue knows (types.ts's JobName is derived from it). */
export type CataloguedJob = keyof typeof JOB_CATALOGUE

/** The data a submitter may pass for a job of this name. */
export type JobData<N extends CataloguedJob> = z.input<(typeof JOB_CATALOGUE)[N]['data']>

/** The data a handler of this name receives, as its schema parsed it. */
export type ParsedJobData<N extends CataloguedJob> = z.output<(typeof JOB_CATALOGUE)[N]['data']>

/** Parses data with a schema, or throws the error `invalid` makes of the first problem. */
export function parseWith<S extends z.ZodType>(definition: JobSpec<S>, data: unknown): z.output<S> {
  const parsed = definition.data.safeParse(data)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const raw = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {}
  throw definition.invalid({ key: issue?.path.map(String).join('.') ?? '', message: issue?.message ?? 'invalid' }, raw)
}

/** Parses a job's data with its catalogue schema; throws the job's own typed error when refused. */
export function parseJobData<N extends CataloguedJob>(name: N, data: unknown): ParsedJobData<N> {
  return parseWith(JOB_CATALOGUE[name] as JobSpec<z.ZodType>, data) as ParsedJobData<N>
}

/**
 * Checks data whose job name is known only at run time (`brain jobs submit <name>`, the
 * submit_job operation): the same schema, and the data typed for submit when it passes.
 */
export function checkJobData<N extends CataloguedJob>(name: N, data: unknown): JobData<N> {
  parseJobData(name, data)
  return data as JobData<N>
}
