/**
 * `brain agents install` proved with the real agents (the versions scripts/setup-agent-clients.sh
 * pins), each in a home of its own, with nothing reachable but 127.0.0.1:
 * - for each agent and scope, a second install changes no byte, an uninstall gives back every
 *   file as it was, and the agent's own `mcp list`/`mcp get` shows brain connected or enabled;
 * - a whole `claude -p` and `gemini -p` turn against a fake model endpoint: the recall hook's
 *   context and brain's tools reach the model, and Claude Code's Stop hook files the session.
 */
import t, { type Test } from 'tap'
import { applyInstall, planInstall, type FileChange, type Scope } from '../../src/agents/index.js'
import { agentDirs } from '../../src/config/home.js'
import { listTools } from '../../src/operations/index.js'
import { CLIENT_CASES, type ClientCase } from '../helpers/agent-client-cases.js'
import { agentClientsBin, agentClientsRequired, brainShimDir, clientEnv, clientSandbox, fileTree, runClient, writeFiles, type ClientRun, type ClientSandbox } from '../helpers/agent-clients.js'
import { cliBrain, type CliBrain } from '../helpers/cli.js'
import { FAKE_ANSWER, startFakeModel, type FakeModel, type RecordedRequest } from '../helpers/fake-model.js'

/** Where the agents find brain: for now a `brain` first on PATH, as a user who installed it has. */
const BRAIN_PATH: readonly string[] = [brainShimDir()]
/** The brain tools a turn must offer the model, no more and no fewer: all `brain serve` lists. */
const EXPECTED_BRAIN_TOOLS: readonly string[] = listTools()
  .map((tool) => tool.name)
  .sort()
/**
 * Gemini CLI's `-p` offers the model only tools that need no confirmation: a server without
 * `trust` (brain's entry has none) gets its tools offered only when every call is pre-approved.
 */
const GEMINI_TURN_ARGS: readonly string[] = ['--approval-mode', 'yolo']

const PAGE = '---\ntype: person\n---\n# Tobiah Marsh\n\nBuyer at Marrowline. His budget closes in June.\n'
const PAGE_FACT = 'His budget closes in June.'
const PROMPT = 'Prep my call with Tobiah Marsh'

function installEnv(sandbox: ClientSandbox, brain: CliBrain): Record<string, string> {
  return { ...sandbox.dirs, BRAIN_HOME: brain.home }
}

/** `brain agents install` in this process: the CLI's own test covers its process boundary. */
async function install(c: ClientCase, scope: Scope, sandbox: ClientSandbox, brain: CliBrain, uninstall = false): Promise<FileChange[]> {
  const changes = await planInstall({ agent: c.agent, scope, project: sandbox.project, dirs: agentDirs(installEnv(sandbox, brain)), command: 'brain', uninstall })
  await applyInstall(changes)
  return changes
}

/** What the brain's processes, started by an agent, need beyond what the installed entries carry. */
function brainEnv(brain: CliBrain): Record<string, string> {
  return { BRAIN_EMBEDDING_PROVIDER: brain.env.BRAIN_EMBEDDING_PROVIDER!, BRAIN_SERVICE_IDLE_TIMEOUT: brain.env.BRAIN_SERVICE_IDLE_TIMEOUT!, BRAIN_HOOK_TIMEOUT_MS: '60000' }
}

async function installRoundTrip(t: Test, c: ClientCase, scope: Scope, sandbox: ClientSandbox, brain: CliBrain): Promise<void> {
  writeFiles(c.files(sandbox, scope))
  const before = fileTree(sandbox.root)
  const first = await install(c, scope, sandbox, brain)
  t.ok(
    first.some((f) => f.status !== 'unchanged'),
    'the install writes',
  )
  const installed = fileTree(sandbox.root)
  const second = await install(c, scope, sandbox, brain)
  t.same(
    second.map((f) => f.status),
    second.map(() => 'unchanged'),
    'a second install has nothing to change',
  )
  t.same(fileTree(sandbox.root), installed, 'a second install leaves every file byte for byte')
  await install(c, scope, sandbox, brain, true)
  t.same(fileTree(sandbox.root), before, 'the uninstall gives back every file as it was')
  await install(c, scope, sandbox, brain)
}

function brainTools(names: readonly string[], prefix: string): { brain: string[]; otherMcp: string[] } {
  return {
    brain: names
      .filter((n) => n.startsWith(prefix))
      .map((n) => n.slice(prefix.length))
      .sort(),
    otherMcp: names.filter((n) => /^mcp_/.test(n) && !n.startsWith(prefix)),
  }
}

function lastWith(requests: readonly RecordedRequest[], test: (r: RecordedRequest) => boolean): RecordedRequest | undefined {
  return requests.filter(test).at(-1)
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await probe()
    if (found !== null) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

function describeRun(run: ClientRun): string {
  return `exit ${run.code} after ${run.ms} ms\nstdout:\n${run.stdout.slice(-4000)}\nstderr:\n${run.stderr.slice(-4000)}`
}

async function main(bin: string): Promise<void> {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  const put = await brain.run(['put', 'people/tobiah-marsh'], { input: PAGE })
  t.equal(put.code, 0, `the page about the entity is in the brain ${put.stderr}`)

  for (const scope of ['user', 'project'] as const) {
    t.test(`${scope} scope: each agent's own commands see brain`, async (t) => {
      const prepared = await Promise.all(
        CLIENT_CASES.map(async (c) => {
          const sandbox = clientSandbox()
          await t.test(`${c.agent}: install twice, uninstall, install`, (t) => installRoundTrip(t, c, scope, sandbox, brain))
          return { c, sandbox }
        }),
      )
      // The agents at once: most of each run is waiting on its own start and brain's.
      const runs = await Promise.all(
        prepared.map(({ c, sandbox }) => Promise.all(c.checks.map((check) => runClient(bin, c.client, check.args, clientEnv(sandbox, bin, BRAIN_PATH, brainEnv(brain)), sandbox.project)))),
      )
      prepared.forEach(({ c }, i) => {
        c.checks.forEach((check, j) => {
          const run = runs[i]![j]!
          const problem = check.problem(run, scope)
          t.equal(problem, null, `${c.client} ${check.args.join(' ')} (${run.ms} ms)`)
        })
      })
    })
  }

  t.test('full turns against a fake model', async (t) => {
    const model: FakeModel = await startFakeModel()
    t.teardown(model.close)

    t.test('claude -p: recall context and brain tools reach the model; the Stop hook files the session', async (t) => {
      const c = CLIENT_CASES.find((x) => x.client === 'claude')!
      const sandbox = clientSandbox()
      writeFiles(c.files(sandbox, 'user'))
      await install(c, 'user', sandbox, brain)
      const env = clientEnv(sandbox, bin, BRAIN_PATH, { ...brainEnv(brain), ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' })
      const run = await runClient(bin, 'claude', ['-p', PROMPT, '--output-format', 'json'], env, sandbox.project)
      t.equal(run.code, 0, describeRun(run))
      const result = JSON.parse(run.stdout) as { result?: string; session_id?: string; is_error?: boolean }
      t.equal(result.result, FAKE_ANSWER, 'the turn ends with the model answer')

      const turn = lastWith(model.requests, (r) => r.path.startsWith('/v1/messages') && Array.isArray(r.body?.tools))
      t.ok(turn, 'Claude Code asked the model with tools')
      t.match(turn?.text ?? '', "From the user's brain", 'the recall hook context is in the request')
      t.match(turn?.text ?? '', PAGE_FACT, "the page's text is in the request")
      const names = ((turn?.body?.tools ?? []) as Array<{ name?: string }>).map((tool) => tool.name ?? '')
      const tools = brainTools(names, 'mcp__brain__')
      t.same(tools.brain, EXPECTED_BRAIN_TOOLS, "brain's tools are offered")
      t.same(tools.otherMcp, [], 'no other MCP server is offered')

      const slug = `sessions/claude-code/${result.session_id ?? ''}`
      const page = await waitFor('the session page', async () => {
        const got = await brain.run(['get', slug, '--json'])
        return got.code === 0 ? got.json<{ type: string; compiled_truth: string }>() : null
      })
      t.equal(page.type, 'session')
      t.match(page.compiled_truth, PROMPT, 'the session page holds the prompt')
      t.match(page.compiled_truth, FAKE_ANSWER, 'and the answer')
    })

    t.test('gemini -p: recall context and brain tools reach the model', async (t) => {
      const c = CLIENT_CASES.find((x) => x.client === 'gemini')!
      const sandbox = clientSandbox()
      writeFiles(c.files(sandbox, 'user'))
      await install(c, 'user', sandbox, brain)
      const env = clientEnv(sandbox, bin, BRAIN_PATH, { ...brainEnv(brain), GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'test-not-a-key' })
      const run = await runClient(bin, 'gemini', ['-p', PROMPT, '-m', 'gemini-2.5-flash', '-o', 'json', ...GEMINI_TURN_ARGS], env, sandbox.project)
      t.equal(run.code, 0, describeRun(run))
      t.equal((JSON.parse(run.stdout) as { response?: string }).response, FAKE_ANSWER, 'the turn ends with the model answer')

      const turn = lastWith(model.requests, (r) => r.path.endsWith(':streamGenerateContent') && Array.isArray(r.body?.tools))
      t.ok(turn, 'Gemini CLI asked the model with tools')
      t.match(turn?.text ?? '', "From the user's brain", 'the recall hook context is in the request')
      t.match(turn?.text ?? '', PAGE_FACT, "the page's text is in the request")
      const declared = ((turn?.body?.tools ?? []) as Array<{ functionDeclarations?: Array<{ name?: string }> }>).flatMap((tool) => tool.functionDeclarations ?? []).map((f) => f.name ?? '')
      const tools = brainTools(declared, 'mcp_brain_')
      t.same(tools.brain, EXPECTED_BRAIN_TOOLS, "brain's tools are offered")
      t.same(tools.otherMcp, [], 'no other MCP server is offered')
    })
  })
}

const found = agentClientsBin()
if ('bin' in found) await main(found.bin)
else if (agentClientsRequired()) t.fail(found.missing)
else t.plan(0, found.missing)
