import type { Writable } from 'node:stream'
import type { BrainEnv } from '../config/index.js'
import { UsageError } from '../errors/index.js'

/** What a command lends the thin client: its parsed options and its output helpers. */
export interface RemoteHost {
  path: string
  options: Readonly<Record<string, unknown>>
  env: BrainEnv
  stdout: Writable
  stderr: Writable
  jsonMode: boolean
  print(value: unknown, human: () => string): void
  readStdin(): Promise<string>
}

interface RemoteCall {
  tool: string
  args: Record<string, unknown>
  /** Prints the tool's structured result the way the local command prints its own. */
  present(result: Record<string, unknown>, host: RemoteHost): void
}

type Planner = (host: RemoteHost) => Promise<RemoteCall>

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const words = (v: unknown): string[] => (Array.isArray(v) ? v.filter((w): w is string => typeof w === 'string') : [])
function int(flag: string, v: unknown): number | undefined {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isInteger(n)) throw new UsageError(`invalid_${flag}`, `--${flag} must be a whole number, not "${String(v)}".`)
  return n
}
const defined = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))

function camel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camel)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), k === 'frontmatter' ? v : camel(v)]))
}

async function captureContent(host: RemoteHost): Promise<string> {
  const text = words(host.options.text)
  const file = str(host.options.file)
  const stdin = host.options.stdin === true
  const chosen = [text.length > 0, file !== undefined, stdin].filter(Boolean).length
  if (chosen !== 1) throw new UsageError('capture_requires_one_input', chosen === 0 ? 'Nothing to capture.' : 'Give the content one way: text, --file or --stdin.')
  if (file !== undefined) {
    const { readTextFile } = await import('../sources/index.js')
    return readTextFile(file)
  }
  return stdin ? host.readStdin() : text.join(' ')
}

const PLANNERS: Record<string, Planner> = {
  capture: async (host) => ({
    tool: 'capture',
    args: defined({ text: await captureContent(host), slug: str(host.options.slug), type: str(host.options.type), source: str(host.options.source), no_embed: host.options.noEmbed === true || undefined }),
    present(result, h) {
      if (h.options.quiet === true && h.options.json === undefined) return void h.stdout.write(`${String(result.slug)}\n`)
      const wt = result.write_through as { written: boolean; path: string | null; reason?: string }
      h.print(result, () => [`slug:    ${result.slug}`, `status:  ${result.status}`, `hash:    ${result.content_hash}`, `path:    ${wt.written ? wt.path : `not written (${wt.reason})`}`, `title:   ${result.title}`].join('\n'))
    },
  }),
  put: async (host) => {
    const content = await host.readStdin()
    if (content.trim() === '') throw new UsageError('put_requires_content', 'No content on stdin.', { hint: 'Pipe the page in: echo "# Title" | brain put <slug>' })
    return {
      tool: 'put_page',
      args: defined({ slug: str(host.options.slug), content, source: str(host.options.source), no_embed: host.options.noEmbed === true || undefined }),
      present(result, h) {
        const wt = result.write_through as { written: boolean; path: string | null }
        h.print(result, () => (result.status === 'skipped' ? `skipped ${result.slug} (unchanged)` : `${result.status} ${result.slug} (${result.chunks} chunks)${wt.written ? ` -> ${wt.path}` : ''}`))
      },
    }
  },
  get: async (host) => ({
    tool: 'get_page',
    args: defined({ slug: str(host.options.slug), source: str(host.options.source), chunks: host.options.chunks === true || undefined }),
    async present(result, h) {
      const { serializePage } = await import('../pages/index.js')
      h.print(result, () => serializePage(camel(result) as Parameters<typeof serializePage>[0]))
    },
  }),
  list: async (host) => ({
    tool: 'list_pages',
    args: defined({ type: str(host.options.type), tag: str(host.options.tag), kind: str(host.options.kind), source: str(host.options.source), limit: int('limit', host.options.limit) }),
    present(result, h) {
      const pages = (result.pages ?? []) as Array<{ slug: string; title: string; type: string; tags: string[] }>
      h.print(pages, () => (pages.length === 0 ? 'No pages.' : pages.map((p) => `${p.slug}  ${p.title}  (${p.type}${p.tags.length ? `; ${p.tags.join(', ')}` : ''})`).join('\n')))
    },
  }),
  'jobs list': async (host) => ({
    tool: 'list_jobs',
    args: defined({ status: str(host.options.status), name: str(host.options.name), limit: int('limit', host.options.limit) }),
    present(result, h) {
      const jobs = (result.jobs ?? []) as Array<{ id: string; name: string; status: string; attempts: number; created_at: string }>
      h.print(jobs, () => (jobs.length === 0 ? 'no jobs' : jobs.map((j) => `${j.id}  ${j.name.padEnd(15)}  ${j.status.padEnd(9)}  attempts ${j.attempts}  ${j.created_at.replace('T', ' ').slice(0, 19)}`).join('\n')))
    },
  }),
  'jobs get': async (host) => ({
    tool: 'get_job',
    args: { id: str(host.options.id) },
    present(result, h) {
      h.print(result, () => `${result.id}  ${String(result.name).padEnd(15)}  ${String(result.status).padEnd(9)}  attempts ${result.attempts}\ndata: ${JSON.stringify(result.data)}`)
    },
  }),
}

/** Registers the thin-client form of a command, e.g. from a capability that adds its own tools. */
export function registerRemoteCommand(path: string, planner: Planner): void {
  PLANNERS[path] = planner
}

/**
 * On a thin-client install (`brain init --remote`), runs the command as a call of the remote
 * brain's tool and prints the result as the local command would. Returns null when the command
 * runs locally.
 */
export async function runRemotely(host: RemoteHost): Promise<number | null> {
  const planner = PLANNERS[host.path]
  if (!planner) return null
  const { loadConfig } = await import('../config/index.js')
  const remote = loadConfig({ env: host.env }).remote
  if (remote === null) return null
  const call = await planner(host)
  const { callRemoteTool } = await import('../mcp/remote-client.js')
  const result = await callRemoteTool(remote, call.tool, call.args)
  await call.present(result, host)
  return 0
}
