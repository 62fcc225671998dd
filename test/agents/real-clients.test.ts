/**
 * `brain agents install` proved with the real agents (the versions scripts/setup-agent-clients.sh
 * pins), each in a home of its own, with nothing reachable but 127.0.0.1:
 * - for each agent and scope, a second install changes no byte, an uninstall gives back every
 *   file as it was, and the agent's own `mcp list`/`mcp get` shows brain connected or enabled;
 * - a whole `claude -p` and `gemini -p` turn against a fake model endpoint: the recall hook's
 *   context and brain's tools reach the model, and Claude Code's Stop hook files the session.
 */
import t, { type Test } from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { launcherPath, runInstall, type FileChange, type Scope } from '../../src/agents/index.js'
import { agentDirs } from '../../src/config/home.js'
import { profileTools } from '../../src/operations/index.js'
import { CLIENT_CASES, type ClientCase, type Expected } from '../helpers/agent-client-cases.js'
import {
  agentClientsBin,
  agentClientsRequired,
  clientEnv,
  clientPath,
  clientSandbox,
  CLIENTS,
  fileTree,
  runClient,
  writeFiles,
  type ClientName,
  type ClientRun,
  type ClientSandbox,
} from '../helpers/agent-clients.js'
import { cliBrain, type CliBrain } from '../helpers/cli.js'
import { FAKE_ANSWER, startFakeModel, startProxyTrap, type FakeModel, type ProxyTrap, type RecordedRequest } from '../helpers/fake-model.js'

/**
 * What the agents get on PATH before their own folder and node's: nothing, so no `brain` is there
 * and every entry must start brain through the launcher the install writes.
 */
const BRAIN_PATH: readonly string[] = []
/** The brain tools a turn must offer the model, no more and no fewer: the memory profile installs serve. */
const EXPECTED_BRAIN_TOOLS: readonly string[] = profileTools('memory')
  .map((tool) => tool.name)
  .sort()
/** What brain's server entry starts: this brain's launcher in a personal file, a lookup of each person's in a shared one. */
function expected(scope: Scope, brain: CliBrain): Expected {
  const serve = ['serve', '--tools', 'memory']
  return { scope, brainHome: brain.home, argv: scope === 'user' ? [launcherPath(brain.home), ...serve] : ['sh', '-c', 'exec "${BRAIN_HOME:-$HOME/.brain}/bin/brain" "$@"', 'brain', ...serve] }
}
/**
 * Gemini CLI's `-p` offers the model only tools that need no confirmation: a server without
 * `trust` gets its tools offered only when every call is pre-approved. brain's entry carries no
 * `trust: true`, which would let every agent call brain's writing tools unasked; the headless
 * turn pre-approves its calls instead, as a user scripting `gemini -p` chooses to.
 */
const GEMINI_TURN_ARGS: readonly string[] = ['--approval-mode', 'yolo']

const PAGE = '---\ntype: person\n---\n# Tobiah Marsh\n\nBuyer at Marrowline. His budget closes in June.\n'
const PAGE_FACT = 'His budget closes in June.'
const PROMPT = 'Prep my call with Tobiah Marsh'

function installEnv(sandbox: ClientSandbox, brain: CliBrain): Record<string, string> {
  return { ...sandbox.dirs, BRAIN_HOME: brain.home }
}

/**
 * `brain agents install <agent> --trust` in this process (the CLI's own test covers its process
 * boundary), with no `brain` on PATH: the consent each agent asks of its user comes from the
 * install wherever brain writes it, not from the sandbox's files.
 */
async function install(c: ClientCase, scope: Scope, sandbox: ClientSandbox, brain: CliBrain, uninstall = false): Promise<FileChange[]> {
  const env = { ...installEnv(sandbox, brain), PATH: '/usr/bin:/bin' }
  const request = { agent: c.agent, scope, project: sandbox.project, dirs: agentDirs(env), brainHome: brain.home, command: null, source: null, trust: c.trusts(scope), uninstall }
  return (await runInstall(request, { dryRun: false, env })).changes
}

/**
 * What the brain's processes, started by an agent, need beyond what the installed entries carry.
 * BRAIN_HOME is what a user whose home is not ~/.brain exports: shared project files look up the
 * launcher in it (personal entries name the launcher, which sets it itself).
 */
function brainEnv(brain: CliBrain): Record<string, string> {
  return {
    BRAIN_HOME: brain.home,
    BRAIN_EMBEDDING_PROVIDER: brain.env.BRAIN_EMBEDDING_PROVIDER!,
    BRAIN_SERVICE_IDLE_TIMEOUT: brain.env.BRAIN_SERVICE_IDLE_TIMEOUT!,
    BRAIN_HOOK_TIMEOUT_MS: '60000',
  }
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

/** One proxy trap per client, so what each tried to reach beyond 127.0.0.1 can be told apart. */
type Traps = Record<ClientName, ProxyTrap>

async function main(bin: string): Promise<void> {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  const traps = Object.fromEntries(await Promise.all(CLIENTS.map(async (c) => [c, await startProxyTrap()] as const))) as Traps
  t.teardown(() => Promise.all(CLIENTS.map((c) => traps[c].close())))
  const put = await brain.run(['put', 'people/tobiah-marsh'], { input: PAGE })
  t.equal(put.code, 0, `the page about the entity is in the brain ${put.stderr}`)
  const envFor = (c: ClientName, sandbox: ClientSandbox, extra: Record<string, string> = {}): Record<string, string> =>
    clientEnv(sandbox, bin, BRAIN_PATH, traps[c].url, { ...brainEnv(brain), ...extra })
  t.same(
    clientPath(bin, BRAIN_PATH).filter((dir) => existsSync(join(dir, 'brain'))),
    [],
    'no brain on the PATH the agents get: the entries start the launcher',
  )

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
      const runs = await Promise.all(prepared.map(({ c, sandbox }) => Promise.all(c.checks.map((check) => runClient(bin, c.client, check.args, envFor(c.client, sandbox), sandbox.project)))))
      prepared.forEach(({ c }, i) => {
        c.checks.forEach((check, j) => {
          const run = runs[i]![j]!
          t.equal(check.problem(run, expected(scope, brain)), null, `${c.client} ${check.args.join(' ')} (${run.ms} ms)`)
        })
      })
    })
  }

  t.test('full turns against a fake model', async (t) => {
    const model: FakeModel = await startFakeModel()
    t.teardown(model.close)
    const claude = CLIENT_CASES.find((x) => x.client === 'claude')!
    const gemini = CLIENT_CASES.find((x) => x.client === 'gemini')!
    const claudeHome = clientSandbox()
    const geminiHome = clientSandbox()
    writeFiles({ ...claude.files(claudeHome, 'user'), ...gemini.files(geminiHome, 'user') })
    await install(claude, 'user', claudeHome, brain)
    await install(gemini, 'user', geminiHome, brain)
    // Both turns at once; the model's requests tell them apart by path.
    const [claudeRun, geminiRun] = await Promise.all([
      runClient(
        bin,
        'claude',
        ['-p', PROMPT, '--output-format', 'json'],
        envFor('claude', claudeHome, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
        claudeHome.project,
      ),
      runClient(
        bin,
        'gemini',
        ['-p', PROMPT, '-m', 'gemini-2.5-flash', '-o', 'json', ...GEMINI_TURN_ARGS],
        envFor('gemini', geminiHome, { GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'test-not-a-key' }),
        geminiHome.project,
      ),
    ])

    t.test(`claude -p (${claudeRun.ms} ms): recall context and brain tools reach the model; the Stop hook files the session`, async (t) => {
      t.equal(claudeRun.code, 0, describeRun(claudeRun))
      const result = JSON.parse(claudeRun.stdout) as { result?: string; session_id?: string }
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
      t.equal(page.type, 'session', `${slug} is a session page`)
      t.match(page.compiled_truth, PROMPT, 'the session page holds the prompt')
      t.match(page.compiled_truth, FAKE_ANSWER, 'and the answer')
    })

    t.test(`gemini -p (${geminiRun.ms} ms): recall context and brain tools reach the model`, async (t) => {
      t.equal(geminiRun.code, 0, describeRun(geminiRun))
      t.equal((JSON.parse(geminiRun.stdout) as { response?: string }).response, FAKE_ANSWER, 'the turn ends with the model answer')

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

  t.test('what the agents tried to reach beyond 127.0.0.1 (refused)', async (t) => {
    for (const c of CLIENTS) t.comment(`${c}: ${traps[c].attempts.length === 0 ? 'nothing' : [...new Set(traps[c].attempts)].join(', ')}`)
    t.pass('every attempt went to the refusing proxy')
  })
}

const found = agentClientsBin()
if ('bin' in found) await main(found.bin)
else if (agentClientsRequired()) t.fail(found.missing)
else t.plan(0, found.missing)
