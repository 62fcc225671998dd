/**
 * An operation called by name on the service socket, on both engines: the result comes back as
 * the tool's JSON, a refusal as its error code, with no command line and no printed text between.
 */
import { tmpdir } from 'node:os'
import t from 'tap'
import { callOperation } from '../../src/cli/call-operation.js'
import { loadConfig } from '../../src/config/index.js'
import { BrainService, callOperationOn, tryConnect } from '../../src/service/index.js'
import type { OperationCall } from '../../src/service/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { cliBrain } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

for (const engine of ENGINES) {
  t.test(`operation calls on the service socket (${engine})`, async (t) => {
    const brain = await cliBrain(engine, { mode: 'service' })
    t.teardown(brain.cleanup)
    const config = loadConfig({ env: brain.env })
    const service = new BrainService(config, silentLogger, { callOperation: (call, host, signal) => callOperation(call, { host, signal }) })
    await service.start()
    t.teardown(() => service.stop('test over'))
    const call = async (operation: string, args: Record<string, unknown>) => {
      const socket = await tryConnect(service.paths.socket)
      if (socket === null) throw new Error('the service does not listen')
      const full: OperationCall = { operation, args, cwd: tmpdir(), env: brain.env }
      return callOperationOn(socket, full)
    }
    t.match(await call('start_session', { session_id: 's1' }), { kind: 'result', ok: true, result: { source_id: 'default', pages: 0, session: 's1', forgotten: 0 } })
    t.match(await call('recall', { text: 'hello there', session_id: 's1' }), { kind: 'result', ok: true, result: { inject: [], tokens: 0, session: 's1' } })
    t.match(await call('recall', { text: 'hello', source: 'nope' }), { kind: 'result', ok: false, error: { code: 'source_not_found', message: /No source "nope"/ } })
    t.match(await call('recall', { text: 42 }), { kind: 'result', ok: false, error: { code: 'invalid_params' } })
    t.match(await call('no_such_tool', {}), { kind: 'result', ok: false, error: { code: 'unknown_tool' } })
    t.equal(service.status().clients, 0, 'no call is left running')
  })
}
