import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Unix socket paths longer than this do not fit sockaddr_un on every platform. */
const MAX_SOCKET_PATH = 100

export interface ServicePaths {
  home: string
  socket: string
  /** `{pid, version, build, socket, startedAt}` of the running service. */
  state: string
  /** Held by the one running service of this home. */
  lock: string
  log: string
}

/**
 * Where the service of a brain home keeps its files. A home too deep for a socket path gets
 * its socket in a private directory under the temp dir, named after the home.
 */
export function servicePaths(home: string): ServicePaths {
  let socket = join(home, 'brain.sock')
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    // Loaded only for such a home: every relayed command and hook finds its socket here.
    const { createHash } = process.getBuiltinModule('node:crypto')
    const digest = createHash('sha256').update(home).digest('hex').slice(0, 16)
    socket = join(tmpdir(), `brain-${process.getuid?.() ?? 'u'}-${digest}`, 'brain.sock')
  }
  return {
    home,
    socket,
    state: join(home, 'service.json'),
    lock: join(home, 'service.lock'),
    log: join(home, 'logs', 'service.log'),
  }
}
