import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'
import { NOTES } from './fixtures.js'
import { startStubLlm, type StubLlm } from './stub-llm.js'

const QUESTION = 'when did we move the probe launch?'
const KEY = 'sk-cli-9d8c7b6a5f4e3d2c1b0a'

let stub: StubLlm
t.before(async () => {
  stub = await startStubLlm()
})
t.teardown(() => stub.close())

for (const engine of ENGINES) {
  t.test(`brain context, ask and doctor [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const folder = join(brain.home, 'notes')
    for (const note of NOTES.filter((n) => n.kind !== 'code')) {
      mkdirSync(dirname(join(folder, note.slug)), { recursive: true })
      writeFileSync(join(folder, `${note.slug}.md`), note.content)
    }
    t.equal((await brain.run(['init'])).code, 0)
    const imported = await brain.run(['import', folder])
    t.equal(imported.code, 0, imported.stderr)

    const pack = await brain.run(['context', '--json', '--budget', '500', ...QUESTION.split(' ')])
    t.equal(pack.code, 0, pack.stderr)
    t.match(pack.json(), { question: QUESTION, budget: 500, items: [{ n: 1, slug: 'projects/probe' }] })
    const human = await brain.run(['context', '--no-json', QUESTION])
    t.match(human.stdout, /^\[1\] projects\/probe \d{4}-\d{2}-\d{2}$/m)

    const extractive = await brain.run(['ask', '--json', QUESTION])
    t.equal(extractive.code, 0, extractive.stderr)
    t.match(extractive.json(), { mode: 'extractive', model: null, answer: /moved to April.*\[\d+\]/ })

    const bad = await brain.run(['config', 'set', 'llm.url', 'ftp://example.invalid'])
    t.equal(bad.code, 1)
    t.match(bad.stderr + bad.stdout, /invalid_config_value|llm\.url must be an http/)
    t.equal((await brain.run(['config', 'set', 'llm.url', `${stub.url}/`])).code, 0)
    t.equal((await brain.run(['config', 'get', '--no-json', 'llm.url'])).stdout.trim(), stub.url, 'kept without the trailing slash')
    t.equal((await brain.run(['config', 'set', 'llm.model', 'stub-model'])).code, 0)
    const env = { BRAIN_LLM_API_KEY: KEY }

    stub.script({ kind: 'answer', text: 'The launch moved to April [1].\n\nNot in the brain:\n- who decided it' })
    const answered = await brain.run(['ask', '--json', QUESTION], { env })
    t.equal(answered.code, 0, answered.stderr)
    t.match(answered.json(), { answer: 'The launch moved to April [1].', citations: [{ n: 1, slug: 'projects/probe' }], flags: [], gaps: ['who decided it'], model: 'stub-model', mode: 'llm' })
    t.type(answered.json().context_tokens, 'number')
    t.equal(stub.requests[0]?.authorization, `Bearer ${KEY}`)
    t.equal(stub.requests[0]?.body?.stream, false, 'whole in JSON')

    stub.script({ kind: 'answer', text: 'The launch moved to April [1]. It was a sunny day.' })
    const streamed = await brain.run(['ask', '--no-json', QUESTION], { env })
    t.equal(streamed.code, 0, streamed.stderr)
    t.equal(stub.requests[0]?.body?.stream, true, 'streamed for a person')
    t.match(streamed.stdout, /The launch moved to April \[1\]\. It was a sunny day\.\n[\s\S]*Sources:\n {2}\[1\] projects\/probe[\s\S]*no citation: It was a sunny day\./)

    stub.script({ kind: 'status', status: 401, message: `Incorrect API key provided: ${KEY}` })
    const refused = await brain.run(['ask', '--json', QUESTION], { env })
    t.equal(refused.code, 1)
    t.match(JSON.parse(refused.stdout || refused.stderr), { error: { class: 'ProviderError', code: 'llm_auth_failed' } })
    const noKeyAnywhere = [pack, human, extractive, answered, streamed, refused].every((r) => !r.stdout.includes(KEY) && !r.stderr.includes(KEY))
    t.ok(noKeyAnywhere, 'the key is in no output')

    const doctor = await brain.run(['doctor', '--json'], { env })
    const llmCheck = (doctor.json() as { checks: Array<{ name: string; status: string; message: string }> }).checks.find((c) => c.name === 'llm')
    t.match(llmCheck, { status: 'ok', message: /serves stub-model/ })
    t.equal((await brain.run(['config', 'set', 'llm.model', 'missing-model'])).code, 0)
    const missing = (await brain.run(['doctor', '--json'], { env })).json() as { checks: Array<{ name: string; status: string; message: string }> }
    t.match(
      missing.checks.find((c) => c.name === 'llm'),
      { status: 'warn', message: /does not list missing-model/ },
    )
  })
}
