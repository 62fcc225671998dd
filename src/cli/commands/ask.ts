import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs } from '../operation-command.js'

/**
 * `brain ask`: the `ask` operation, with the answer streamed to a terminal as the model writes
 * it (the sources, flags and gaps follow once it is checked); whole in JSON.
 */
export class AskCommand extends BrainCommand {
  static override paths = [['ask']]
  static override usage = Command.Usage({
    description: 'Answer a question from the brain, every claim cited',
    details:
      'With a chat model configured (`brain config set llm.url <OpenAI-compatible base URL>`, `brain config set llm.model <name>`, the key in BRAIN_LLM_API_KEY or OPENAI_API_KEY) the model answers from the context pack only (`brain context` shows it), citing items as [n]; the citations are checked afterwards, and sentences without one or numbers outside the pack are listed under "Check these". "Not in the brain" lists what the question asks that the pack does not hold. Without a model, or with --no-llm, the answer is the pack’s best sentences, each cited (mode: extractive).',
    examples: [
      ['Ask a question', '$0 ask "when did we move the probe launch?"'],
      ['Without the model', '$0 ask --no-llm "what is the retry policy of the queue?"'],
    ],
  })
  source = Option.String('--source', { description: 'Only pages of this source id' })
  budget = Option.String('--budget', { description: 'Tokens the evidence may take, 100–32000 (default 2000)' })
  // clipanion reads `--no-llm` as this flag turned off.
  llm = Option.Boolean('--llm', true, { description: '--no-llm answers extractively, without the chat model' })
  words = Option.Rest({ name: 'question', required: 1 })

  protected async run(): Promise<number> {
    const { askTool, formatAnswerTail } = await import('../../operations/answers.js')
    const question = this.words.join(' ').trim()
    if (question === '') throw new UsageError('requires_question', 'ask needs a question.', { hint: 'For example: `brain ask "when did we move the probe launch?"`' })
    let budget: number | undefined
    if (this.budget !== undefined) {
      budget = Number(this.budget)
      if (this.budget.trim() === '' || !Number.isInteger(budget)) throw new UsageError('invalid_budget', `--budget must be a whole number, not "${this.budget}".`)
    }
    const args = checkedArgs(askTool, { question, source: this.source, budget, no_llm: this.llm ? undefined : true })
    if (this.jsonMode) {
      await this.present(askTool, await this.runOperation(askTool, args))
      return 0
    }
    let streamed = false
    const result = await this.runOperation(askTool, args, {
      onText: (text) => {
        streamed = true
        this.context.stdout.write(text)
      },
    })
    if (!streamed) {
      await this.present(askTool, result)
      return 0
    }
    const notice = askTool.present?.notice?.(result)
    if (notice) this.context.stderr.write(`note: ${notice}\n`)
    this.context.stdout.write(`\n${formatAnswerTail(result as Parameters<typeof formatAnswerTail>[0], { gaps: false })}\n`)
    return 0
  }
}
