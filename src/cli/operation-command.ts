import { Command, Option, type CommandClass } from 'clipanion'
import type * as z from 'zod'
import { UsageError, ValidationError } from '../errors/index.js'
import type { CliOption, CliShape, Operation } from '../operations/index.js'
import { BrainCommand } from './brain-command.js'
import type { CommandContext } from '../service/index.js'

type Words = string | string[] | boolean | undefined

/** Reads one flag's raw value as the field's type; a bad whole number is a usage error. */
function fieldValue(option: CliOption, raw: Words, errorPrefix: string): unknown {
  if (raw === undefined) return undefined
  if (option.kind === 'boolean') return raw === true
  if (option.kind === 'list') {
    const values = (Array.isArray(raw) ? raw : [String(raw)])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '')
    return values
  }
  const text = String(raw)
  if (option.kind === 'integer') {
    const value = Number(text)
    if (text.trim() === '' || !Number.isInteger(value)) {
      throw new UsageError(`${errorPrefix}invalid_${option.flag.replace(/^--/, '').replace(/-/g, '_')}`, `${option.flag} must be a whole number, not "${text}".`)
    }
    return value
  }
  return text
}

function clipanionOption(option: CliOption): unknown {
  const settings = { description: option.description }
  if (option.kind === 'boolean') return Option.Boolean(option.flag, settings)
  if (option.kind === 'list') return Option.Array(option.flag, settings)
  return Option.String(option.flag, settings)
}

/** A schema refusal on the command line names the flag's field, as the core's own checks do. */
function usageErrorOf(error: z.ZodError, prefix: string): UsageError {
  const issue = error.issues[0]
  const field = issue?.path.map(String).join('.') || 'arguments'
  return new UsageError(`${prefix}invalid_${field}`, `Invalid ${field}: ${issue?.message ?? 'not accepted'}.`)
}

function missingWord(shape: CliShape, prefix: string): UsageError {
  const field = shape.positional?.field ?? 'argument'
  const example = shape.examples?.[0]?.[1]?.replace('$0', 'brain')
  return new UsageError(`${prefix}requires_${field}`, `${shape.path.join(' ')} needs a ${field}.`, {
    hint: example ? `For example: \`${example}\`` : `Run \`brain ${shape.path.join(' ')} --help\`.`,
  })
}

/** The description the operation's schema gives a field; a face's flag for it says the same. */
function fieldDescription(operation: Operation, field: string): string {
  const schema = (operation.input as unknown as { shape?: Record<string, z.ZodType> }).shape?.[field]
  const description = schema?.description ?? (schema as { unwrap?: () => z.ZodType } | undefined)?.unwrap?.().description
  if (description === undefined) throw new ValidationError('cli_flag_without_field', `${operation.name} has no described field ${field} for a flag.`)
  return description
}

const flagOf = (field: string): string => `--${field.replace(/_/g, '-')}`

/** A hand-written face's text flag for an input field: named after the field, described by the schema. */
export function fieldOption(operation: Operation, field: string): string | undefined {
  return Option.String(flagOf(field), { description: fieldDescription(operation, field) })
}

/** A hand-written face's switch for a boolean input field (off unless given). */
export function fieldSwitch(operation: Operation, field: string): boolean {
  return Option.Boolean(flagOf(field), false, { description: fieldDescription(operation, field) })
}

/** Arguments a command gathered, checked by the operation's schema as a tool call's would be. */
export function checkedArgs(operation: Operation, args: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const defined = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined))
  const parsed = operation.input.safeParse(defined)
  if (!parsed.success) throw usageErrorOf(parsed.error, prefix)
  return parsed.data as Record<string, unknown>
}

/**
 * The clipanion command of an operation: words and flags become the operation's input object,
 * checked by its schema; the result is printed by its presenter. On a thin-client install the
 * same arguments go to the remote brain's tool, and its answer is printed the same way.
 */
export function operationCommand(operation: Operation): CommandClass<CommandContext> {
  const shape = operation.cli as CliShape
  const prefix = shape.integerErrorPrefix ?? ''
  class OperationCommand extends BrainCommand {
    static override paths = [shape.path, ...(shape.aliases?.paths ?? [])]
    static override usage = Command.Usage({ description: shape.description, details: shape.details, examples: shape.examples })

    constructor() {
      super()
      // clipanion finds options among a fresh instance's own properties.
      const self = this as unknown as Record<string, unknown>
      if (shape.positional) {
        const name = shape.positional.label ?? shape.positional.field
        self.positional = shape.positional.rest ? Option.Rest({ name, required: shape.positional.required ? 1 : 0 }) : Option.String({ name, required: shape.positional.required })
        for (const word of shape.positional.then ?? []) self[`positional:${word.field}`] = Option.String({ name: word.label ?? word.field, required: word.required })
      }
      for (const option of shape.options) self[`option:${option.field}`] = clipanionOption(option)
      if (shape.stdin) self['stdin:read'] = Option.Boolean(shape.stdin.flag, { description: shape.stdin.description })
    }

    private async input(): Promise<Record<string, unknown>> {
      const self = this as unknown as Record<string, Words>
      const args: Record<string, unknown> = {}
      const piped = shape.stdin && self['stdin:read'] === true ? await this.readStdin() : null
      if (shape.positional) {
        const words = self.positional
        const value = Array.isArray(words) ? words.join(' ') : words
        const given = typeof value === 'string' && value.trim() !== ''
        if (given) args[shape.positional.field] = value
        // The words are needed unless standard input gives the field instead.
        else if (!(shape.stdin?.field === shape.positional.field && piped !== null)) throw missingWord(shape, prefix)
        // Later words go to the schema as typed, so an empty one is refused as the field's own error.
        for (const word of shape.positional.then ?? []) {
          const later = self[`positional:${word.field}`]
          if (typeof later === 'string') args[word.field] = later
        }
      }
      if (shape.stdin && piped !== null) {
        const before = args[shape.stdin.field]
        args[shape.stdin.field] = typeof before === 'string' ? `${before}\n${piped}` : piped
      }
      for (const option of shape.options) {
        const value = fieldValue(option, self[`option:${option.field}`], prefix)
        if (value !== undefined) args[option.field] = value
      }
      if (shape.cwdField && args[shape.cwdField] === undefined) args[shape.cwdField] = this.context.cwd
      return checkedArgs(operation, args, prefix)
    }

    protected override async run(): Promise<number> {
      if (shape.aliases && this.path.join(' ') !== shape.path.join(' ')) this.context.stderr.write(`${shape.aliases.notice}\n`)
      const result = await this.runOperation(operation, await this.input())
      await this.present(operation, result)
      return shape.exitCode?.(result) ?? 0
    }
  }
  Object.defineProperty(OperationCommand, 'name', { value: `${operation.name}Command` })
  return OperationCommand as unknown as CommandClass<CommandContext>
}
