// test-runner: shares a process
/**
 * The TOML table editor behind Codex's install: it adds, replaces and removes one table and
 * leaves the rest of the file byte for byte, and refuses a file that defines the table another way.
 */
import t from 'tap'
import { editTomlTable } from '../../src/agents/index.js'

const PATH = ['mcp_servers', 'brain'] as const
const TABLE = '[mcp_servers.brain]\ncommand = "brain"\nargs = ["serve"]'

const SAMPLE = [
  '# my codex config',
  'model = "o3"',
  'notes = """',
  '[mcp_servers.brain]',
  'not a table: inside a multi-line string',
  '"""',
  '',
  '[mcp_servers.other]',
  'command = "other"',
  'args = [',
  '  "--flag",',
  '  [1, 2],',
  ']',
  '',
  '[profiles.fast]',
  'model = "gpt-5"',
  '',
].join('\n')

t.test('a table is added at the end, found again, and removed to give the file back', async (t) => {
  const added = editTomlTable('config.toml', SAMPLE, PATH, TABLE)
  t.ok(added.changed)
  t.equal(added.text, `${SAMPLE}\n${TABLE}\n`)
  const again = editTomlTable('config.toml', added.text, PATH, TABLE)
  t.notOk(again.changed, 'a second install changes nothing')
  t.equal(again.text, added.text)
  const removed = editTomlTable('config.toml', added.text, PATH, null)
  t.equal(removed.text, SAMPLE, 'uninstall gives back the file byte for byte')
  t.notOk(editTomlTable('config.toml', SAMPLE, PATH, null).changed, 'removing what is not there changes nothing')
})

t.test('a table in the middle is replaced in place with its subtables, the rest untouched', async (t) => {
  const before = 'a = 1\n\n[mcp_servers.brain]\ncommand = "old"\n\n[mcp_servers.brain.env]\nX = "1"\n\n[other]\nb = 2 # keep\n'
  const replaced = editTomlTable('c.toml', before, PATH, TABLE)
  t.equal(replaced.text, `a = 1\n\n${TABLE}\n\n[other]\nb = 2 # keep\n`)
  const removed = editTomlTable('c.toml', before, PATH, null)
  t.equal(removed.text, 'a = 1\n\n[other]\nb = 2 # keep\n')
})

t.test('quoted header keys and comments after headers are the same table', async (t) => {
  const before = `x = 1\n\n[ mcp_servers . "brain" ] # ours\ncommand = "old"\n`
  t.equal(editTomlTable('c.toml', before, PATH, TABLE).text, `x = 1\n\n${TABLE}\n`)
})

t.test('an empty or missing file gets just the table', async (t) => {
  t.equal(editTomlTable('c.toml', null, PATH, TABLE).text, `${TABLE}\n`)
  t.equal(editTomlTable('c.toml', '', PATH, TABLE).text, `${TABLE}\n`)
  t.equal(editTomlTable('c.toml', 'a = 1', PATH, TABLE).text, `a = 1\n\n${TABLE}\n`, 'a last line without a newline gets one')
})

t.test('the same server defined inline or with dotted keys is refused, not defined twice', async (t) => {
  for (const text of ['[mcp_servers]\nbrain = { command = "x" }\n', 'mcp_servers.brain.command = "x"\n', 'mcp_servers = { brain = { command = "x" } }\n', '[mcp_servers]\nbrain.command = "x"\n']) {
    t.throws(() => editTomlTable('c.toml', text, PATH, TABLE), { errorClass: 'ConfigError', code: 'agent_config_conflict' }, text)
  }
  t.doesNotThrow(() => editTomlTable('c.toml', '[mcp_servers]\nbrainy = { command = "x" }\n', PATH, TABLE), 'another name that starts alike is not ours')
})
