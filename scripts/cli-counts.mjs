#!/usr/bin/env node
/**
 * How the command line is made, counted: commands generated from operations, hand-written
 * commands, and the hand-written flags that restate a field an operation's schema already has.
 * Usage: node scripts/cli-counts.mjs [checkout] (default: this one; it must be built).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(process.argv[2] ?? '.')
const { OPERATIONS } = await import(pathToFileURL(join(root, 'dist/src/operations/catalogue.js')).href)

const fields = new Set()
for (const operation of OPERATIONS) for (const field of Object.keys(operation.input.shape ?? {})) fields.add(field)

const folder = join(root, 'src/cli/commands')
let handWritten = 0
let hidden = 0
let restating = 0
for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
  const text = readFileSync(join(folder, file), 'utf8')
  for (const match of text.matchAll(/static override paths = \[\[/g)) {
    handWritten++
    // A class whose usage is undefined is a hidden spelling of another command.
    const rest = text.slice(match.index, match.index + 200)
    if (/static override usage[^=]*= undefined/.test(rest)) hidden++
  }
  for (const [, flag] of text.matchAll(/Option\.(?:String|Boolean|Array|Counter)\('(--[a-z][a-z0-9-]*)/g)) {
    const field = flag.slice(2).replace(/-/g, '_')
    if (fields.has(field)) restating++
  }
}
const generated = OPERATIONS.filter((o) => o.cli !== undefined).length
// Of the hand-written commands, the faces run an operation (docs/architecture.md lists both kinds).
const { commands } = await import(pathToFileURL(join(root, 'dist/src/cli/commands/index.js')).href)
const generatedPaths = new Set(OPERATIONS.flatMap((o) => (o.cli ? [o.cli.path.join(' ')] : [])))
const faces = commands.filter((c) => c.usage !== undefined && !generatedPaths.has(c.paths[0].join(' ')) && /\brunOperation\(/.test(String(c))).length
const result = {
  operations: OPERATIONS.length,
  generated_commands: generated,
  hand_written_commands: handWritten - hidden,
  hand_written_faces_of_operations: faces,
  hand_written_not_operations: handWritten - hidden - faces,
  hidden_aliases: hidden,
  hand_written_flags_restating_a_schema: restating,
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
