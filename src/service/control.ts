import type { Socket } from 'node:net'
import { request, tryConnect } from './call.js'
import { connectOrStart, waitForExit } from './client.js'
import { currentIdentity } from './identity.js'
import type { ServicePaths } from './paths.js'
import { Frame, type Reply, type ServiceStatus } from './protocol.js'

async function ask(socket: Socket, kind: 'status' | 'stop'): Promise<Reply | null> {
  let reply: Reply | null = null
  await request(socket, { kind, ...currentIdentity() }, (type, payload) => {
    if (type === Frame.reply) reply = JSON.parse(payload.toString('utf8')) as Reply
  })
  return reply
}

/** The running service's status, or null when none answers on the socket. */
export async function serviceStatus(paths: ServicePaths): Promise<ServiceStatus | null> {
  const socket = await tryConnect(paths.socket)
  if (!socket) return null
  const reply: Reply | null = await ask(socket, 'status')
  return reply !== null && reply.kind === 'status' ? reply.status : null
}

/** Starts the service in the background unless one runs, and returns its status. */
export async function startService(paths: ServicePaths, env: Record<string, string>): Promise<ServiceStatus | null> {
  const socket = await connectOrStart(paths, env)
  socket.destroy()
  return serviceStatus(paths)
}

/** Asks the running service to stop and waits until its process is gone; null if none ran. */
export async function stopService(paths: ServicePaths): Promise<{ pid: number; exited: boolean } | null> {
  const socket = await tryConnect(paths.socket)
  if (!socket) return null
  const reply: Reply | null = await ask(socket, 'stop')
  if (reply === null || reply.kind !== 'stopping') return null
  return { pid: reply.pid, exited: await waitForExit(reply.pid) }
}
