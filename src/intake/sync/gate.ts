import { ConfirmationRequired } from '../../errors/index.js'
import { formatPreview, type CostPreview } from './preview.js'

export interface GateInputs {
  yes: boolean
  dryRun: boolean
  json: boolean
  /** Both ends are a terminal, so a person can answer. */
  interactive: boolean
}

export type GateDecision = 'preview_only' | 'proceed' | 'ask' | 'confirmation_required'

/**
 * The spend gate of `sync --all`. `--dry-run` wins over `--yes`, so a dry run never writes;
 * a person at a terminal is asked; anyone else (a pipe, an agent, `--json`) must say `--yes`.
 */
export function decideGate(input: GateInputs): GateDecision {
  if (input.dryRun) return 'preview_only'
  if (input.yes) return 'proceed'
  if (input.interactive && !input.json) return 'ask'
  return 'confirmation_required'
}

export type GateOutcome = 'proceed' | 'preview_only' | 'declined'

export interface GateIo {
  /** Shows the preview to a person (stderr, so stdout keeps the result). */
  show(text: string): void
  /** Asks a yes/no question; resolves to the answer line. */
  prompt(question: string): Promise<string>
}

export function isYes(answer: string): boolean {
  return /^\s*y(es)?\s*$/i.test(answer)
}

/**
 * Runs the gate; throws ConfirmationRequired (exit code 2) when nobody can answer. With nothing
 * to embed there is no cost to confirm, so only a dry run stops.
 */
export async function runGate(preview: CostPreview, input: GateInputs, io: GateIo): Promise<GateOutcome> {
  const decision = decideGate(input)
  if (preview.tokens === 0 && decision !== 'preview_only') return 'proceed'
  switch (decision) {
    case 'preview_only':
      return 'preview_only'
    case 'proceed':
      return 'proceed'
    case 'ask':
      io.show(formatPreview(preview))
      return isYes(await io.prompt('Proceed with sync? [y/N] ')) ? 'proceed' : 'declined'
    case 'confirmation_required':
      throw new ConfirmationRequired('sync_cost_confirmation_required', `${formatPreview(preview)} Confirmation is required before embedding.`, {
        hint: 'Re-run with --yes to proceed, --dry-run to see only the preview, or --no-embed to sync without embedding.',
      })
  }
}
