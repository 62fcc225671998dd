// test-runner: shares a process
import t from 'tap'
import { codeDef } from '../../src/code/index.js'
import { engineTest } from '../helpers/engines.js'
import { importRepo } from './fixture.js'

engineTest(t, "code-def on pages without a definition index reads the chunks' own names, bare and qualified", async (t, { db }) => {
  // A tiny budget gives methods chunks of their own, with qualified names.
  await importRepo(db, { chunkSizeTokens: 1 })
  // Pages imported before the definition index existed have no rows there.
  await db.exec('DELETE FROM code_symbols')
  const where = async (symbol: string): Promise<string[]> => [...new Set((await codeDef(db, { symbol })).map((d) => `${d.slug} ${d.symbolType} ${d.symbolNameQualified}`))]
  t.same(await where('Queue.submit'), ['src/queue.ts method Queue.submit'], 'qualified name of a method chunk')
  t.same(await where('Tool::run'), ['lib/tool.rb method Tool.run'], 'another spelling of a qualified name')
  t.same(await where('main.run'), ['app/main.py function run'], 'file.func: a top-level function of main.py')
  t.same(await where('Other.submit'), [], 'a wrong qualifier finds nothing')
  t.same(await where('submit'), ['src/queue.ts method Queue.submit'], 'bare name of a method')
  t.same(await where('run'), ['app/main.py function run', 'lib/tool.rb method Tool.run', 'src/App.java method App.run'], 'types ranked, then by slug')
})
