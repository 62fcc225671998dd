// test-runner: shares a process
/**
 * The commands outside the operation catalogue are the ones docs/architecture.md lists: its faces
 * run an operation, its other commands do not, and every other command is generated.
 */
import { readFileSync } from 'node:fs'
import t from 'tap'
import { commands } from '../../src/cli/commands/index.js'
import { OPERATIONS } from '../../src/operations/index.js'

const doc = readFileSync(new URL('../../../docs/architecture.md', import.meta.url), 'utf8')

/** The `brain …` commands of the table that follows `intro` in the section. */
function listed(intro: string): string[] {
  const start = doc.indexOf(intro)
  if (start < 0) return []
  const table = doc.slice(start).split('\n\n')[1] ?? ''
  return [...table.matchAll(/`brain ([a-z][a-z -]*)`/g)].map((m) => m[1]!)
}

const faces = listed('Hand-written faces of an operation')
const others = listed('Commands that are not operations')
const generated = new Set(OPERATIONS.flatMap((o) => (o.cli ? [o.cli.path.join(' ')] : [])))
const handWritten = commands.filter((c) => !generated.has((c.paths?.[0] ?? []).join(' ')) && c.usage !== undefined)
const pathOf = (c: (typeof commands)[number]): string => (c.paths?.[0] ?? []).join(' ')
// A face reaches its operation through BrainCommand.runOperation; nothing else does.
const runsAnOperation = (c: (typeof commands)[number]): boolean => /\brunOperation\(/.test(String(c))

t.test('the tables list each hand-written command once, and only those', async (t) => {
  t.ok(faces.length > 0 && others.length > 0, 'both tables are found')
  const both = [...faces, ...others]
  t.same(
    both.filter((p, i) => both.indexOf(p) !== i),
    [],
    'no command is listed twice',
  )
  t.same([...both].sort(), handWritten.map(pathOf).sort(), 'the tables are the hand-written commands brain registers')
  t.same(
    both.filter((p) => generated.has(p)),
    [],
    'a generated command is not listed',
  )
})

t.test('a face runs an operation; the other commands do not', async (t) => {
  for (const command of handWritten) {
    const path = pathOf(command)
    if (faces.includes(path)) t.ok(runsAnOperation(command), `brain ${path} runs an operation`)
    else t.notOk(runsAnOperation(command), `brain ${path} runs no operation (a face belongs in the faces table)`)
  }
})
