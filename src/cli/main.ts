import { Builtins, Cli, type CommandClass } from 'clipanion'
import { UsageError } from '../errors/index.js'
import { currentVersion } from '../releases/version/index.js'
import { defaultResolver } from '../../workers/registry.js'
import { registerHandlers } from '../queue/handler.js'
import { commands } from './commands/index.js'
import type { CommandContext } from '../service/index.js'
import { isTerminal, reportError, wantsJson } from './output.js'

/** What each option's value is, named in help instead of clipanion's `#0`. */
function placeholderFor(flag: string): string {
  if (/^--(limit|offset|depth|walk-depth|concurrency|port|max-stalled|priority|batch-size|max-.+)$/.test(flag)) return 'n'
  if (/^--(scopes|include|exclude|include-slug-prefixes|exclude-slug-prefixes|redirect-uri)$/.test(flag)) return 'list'
  if (/^--(timeout|older-than|idle-timeout|autopilot-cron|interval)$/.test(flag)) return flag === '--autopilot-cron' ? 'cron' : 'duration'
  if (/^--(data)$/.test(flag)) return 'json'
  if (/^--(path|dir|file|repo|plugin)$/.test(flag)) return 'path'
  if (/^--(url|remote)$/.test(flag)) return 'url'
  if (/^--(source)$/.test(flag)) return 'id'
  return flag.replace(/^--/, '').replace(/^(lang)$/, 'language')
}

/** Names every `#0` of a help text and lines the option descriptions up again. */
function namePlaceholders(text: string): string {
  const named = text.replace(/((?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*)) #0/g, (_, names: string, flag: string) => `${names} <${placeholderFor(flag)}>`)
  if (named === text) return text
  const option = /^( {2})(-\S(?:.*?\S)?)( {2,})(\S.*)$/
  const lines = named.split('\n')
  const width = Math.max(0, ...lines.map((line) => option.exec(line)?.[2]?.length ?? 0))
  return lines.map((line) => line.replace(option, (_, indent: string, definition: string, _gap: string, description: string) => `${indent}${definition.padEnd(width)}    ${description}`)).join('\n')
}

/**
 * The commands a command line can name: those whose first word it holds, or all of them when it
 * holds none (`brain --help`). clipanion compiles one state machine of every registered command
 * for each command line, about a tenth of a second for all of them; a command's own machine is
 * the same whichever others sit beside it, so the same command wins.
 */
export function commandsFor(argv: readonly string[]): Array<CommandClass<CommandContext>> {
  const words = new Set(argv.filter((a) => !a.startsWith('-')))
  const named = commands.filter((command) => (command.paths ?? []).some((path) => path[0] !== undefined && words.has(path[0])))
  return named.length > 0 ? named : commands
}

export function buildCli(colors = false, registered: ReadonlyArray<CommandClass<CommandContext>> = commands): Cli<CommandContext> {
  const cli = new Cli<CommandContext>({ binaryLabel: 'brain', binaryName: 'brain', binaryVersion: currentVersion(), enableCapture: false, enableColors: colors })
  const usage = cli.usage.bind(cli)
  cli.usage = ((...args: Parameters<typeof usage>) => namePlaceholders(usage(...args))) as typeof cli.usage
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  for (const command of registered) cli.register(command)
  return cli
}

/** clipanion's builder of a Cli's state machine; private in its types, stable in the pinned version. */
type MachineBuilder = { compile: () => unknown }

/**
 * A Cli compiles its state machine again for every command line it reads (a millisecond or two
 * for one command's machine, most of what a relayed search costs the service); a Cli kept for
 * the resident service's next command compiles it once.
 */
function compileOnce(cli: Cli<CommandContext>): Cli<CommandContext> {
  const builder = (cli as unknown as { builder: MachineBuilder }).builder
  const compile = builder.compile.bind(builder)
  let compiled: unknown
  builder.compile = () => (compiled ??= compile())
  return cli
}

/** Built CLIs by colour and command set; a few dozen at most, so the oldest is dropped past that. */
const builtClis = new Map<string, Cli<CommandContext>>()
const BUILT_CLIS_KEPT = 32

function cliFor(colors: boolean, registered: ReadonlyArray<CommandClass<CommandContext>>): Cli<CommandContext> {
  const key = `${colors ? 1 : 0}:${registered.map((command) => commands.indexOf(command)).join(',')}`
  const kept = builtClis.get(key)
  if (kept) return kept
  if (builtClis.size >= BUILT_CLIS_KEPT) builtClis.delete(builtClis.keys().next().value as string)
  const cli = compileOnce(buildCli(colors, registered))
  builtClis.set(key, cli)
  return cli
}

/** The command whose path is the longest prefix of argv's words, if any. */
function closestCommand(cli: Cli<CommandContext>, argv: string[]): { path: string; usage: string } | null {
  const words = argv.filter((a) => !a.startsWith('-'))
  let best: { path: string; usage: string } | null = null
  for (const definition of cli.definitions()) {
    const path = definition.path.split(' ').slice(1)
    if (path.length > 0 && path.every((w, i) => words[i] === w) && (!best || path.length > best.path.split(' ').length)) {
      best = { path: path.join(' '), usage: definition.usage }
    }
  }
  return best
}

function usageErrorFor(cli: Cli<CommandContext>, argv: string[]): UsageError {
  const closest = closestCommand(cli, argv)
  if (closest) {
    return new UsageError('invalid_arguments', `Missing or invalid arguments for brain ${closest.path}.`, {
      hint: `Usage: ${closest.usage} (see \`brain ${closest.path} --help\`)`,
    })
  }
  const word = argv.find((a) => !a.startsWith('-')) ?? argv[0] ?? ''
  const subcommands = cli
    .definitions()
    .map((d) => d.path.split(' ').slice(1))
    .filter((p) => p.length > 1 && p[0] === word)
    .map((p) => p[1])
  if (subcommands.length > 0) {
    return new UsageError('missing_subcommand', `brain ${word} needs a subcommand: ${subcommands.join(', ')}.`, { hint: `Run \`brain ${word} ${subcommands[0]} --help\`.` })
  }
  return new UsageError('unknown_command', `Unknown command: ${word}`, { hint: 'Run `brain --help` for the list of commands.' })
}

/** The context of a command run by this process for itself. */
export function processContext(): CommandContext {
  return { ...Cli.defaultContext, cwd: process.cwd() }
}

/** Runs one command line; usage errors become one line (or the JSON envelope) and exit 1. */
export async function runCli(argv: string[], context: CommandContext = processContext()): Promise<number> {
  // The composition root: the queue runs the job handlers of workers/ through this registry.
  registerHandlers(defaultResolver)
  const colors = isTerminal(context.stdout)
  const cli = cliFor(colors, commandsFor(argv))
  let command
  try {
    command = cli.process(argv, context)
  } catch {
    // The error names the closest command or the subcommands of a word, out of all of them.
    const usage = usageErrorFor(buildCli(colors), argv)
    const jsonFlag = argv.includes('--json') ? true : argv.includes('--no-json') ? false : undefined
    return reportError(usage, context, wantsJson(jsonFlag, context.stdout))
  }
  return cli.run(command, { ...context, runCli })
}

// Run directly (`node dist/src/cli/main.js`), this module is the in-process CLI; `brain` itself
// starts at src/cli/entry.ts.
const isMain = process.argv[1] !== undefined && /(?:^|[\\/])main\.js$/.test(process.argv[1])
if (isMain) {
  const code = await runCli(process.argv.slice(2))
  // Exit once output is flushed: a pool or model left open must not keep a finished command alive.
  process.stdout.write('', () => process.exit(code))
}
