import t from 'tap'
import { ConfirmationRequired } from '../../../src/errors/index.js'
import { decideGate, formatPreview, isYes, runGate, summarizePreview, type GateInputs } from '../../../src/intake/sync/index.js'

t.test('preview arithmetic: sums per source, 0.00013 USD per 1000 tokens', async (t) => {
  const preview = summarizePreview([
    { sourceId: 'a', files: 3, tokens: 600_000 },
    { sourceId: 'b', files: 2, tokens: 400_000 },
  ])
  t.equal(preview.files, 5)
  t.equal(preview.sources, 2)
  t.equal(preview.tokens, 1_000_000)
  t.equal(Number(preview.estimatedUsd.toFixed(10)), 0.13)
  t.equal(summarizePreview([]).estimatedUsd, 0)
  const text = formatPreview(preview)
  t.match(text, /5 files in 2 sources, 1,000,000 tokens, estimated \$0\.1300/)
  t.match(formatPreview(summarizePreview([{ sourceId: 'a', files: 1, tokens: 1 }])), /1 file in 1 source, 1 token,/)
})

t.test('the gate decision table', async (t) => {
  const base: GateInputs = { yes: false, dryRun: false, json: false, interactive: false }
  t.equal(decideGate({ ...base, yes: true }), 'proceed')
  t.equal(decideGate({ ...base, dryRun: true }), 'preview_only')
  t.equal(decideGate({ ...base, dryRun: true, yes: true }), 'preview_only', 'a dry run never writes, even with --yes')
  t.equal(decideGate({ ...base, interactive: true }), 'ask')
  t.equal(decideGate({ ...base, interactive: true, json: true }), 'confirmation_required', '--json on a terminal does not ask')
  t.equal(decideGate(base), 'confirmation_required', 'no terminal, no --yes')
  t.equal(decideGate({ ...base, yes: true, json: true }), 'proceed')
})

t.test('runGate asks on a terminal and throws ConfirmationRequired otherwise', async (t) => {
  const preview = summarizePreview([{ sourceId: 'notes', files: 10, tokens: 2000 }])
  const shown: string[] = []
  const io = (answer: string) => ({ show: (text: string) => void shown.push(text), prompt: async (q: string) => (shown.push(q), answer) })
  t.equal(await runGate(preview, { yes: false, dryRun: false, json: false, interactive: true }, io('y')), 'proceed')
  t.match(shown[0], /10 files in 1 source/)
  t.match(shown[1], /\[y\/N\]/)
  t.equal(await runGate(preview, { yes: false, dryRun: false, json: false, interactive: true }, io('')), 'declined', 'the default answer is no')
  t.equal(await runGate(preview, { yes: false, dryRun: false, json: false, interactive: true }, io('nope')), 'declined')
  const refused = runGate(preview, { yes: false, dryRun: false, json: true, interactive: true }, io('y'))
  await t.rejects(refused, ConfirmationRequired)
  await t.rejects(runGate(preview, { yes: false, dryRun: false, json: false, interactive: false }, io('y')), { code: 'sync_cost_confirmation_required', exitCode: 2 })
  const nothing = summarizePreview([{ sourceId: 'empty', files: 0, tokens: 0 }])
  t.equal(await runGate(nothing, { yes: false, dryRun: false, json: true, interactive: false }, io('n')), 'proceed', 'nothing to embed, nothing to confirm')
  t.equal(await runGate(nothing, { yes: false, dryRun: true, json: true, interactive: false }, io('n')), 'preview_only')
  t.ok(isYes(' YES ') && isYes('y') && !isYes('yeah') && !isYes('n'))
})
