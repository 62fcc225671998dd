/**
 * One request over the service socket, with nothing more loaded than the socket and the
 * protocol: the path an agent's hook takes on every prompt, where each module loaded is time the
 * agent waits. Starting and stopping the service is client.ts's.
 */
import { connect, type Socket } from 'node:net'
import { currentIdentity } from './identity.js'
import { Frame, FrameDecoder, encodeJson, type Hello, type Identity, type OperationCall, type Reply } from './protocol.js'

/** A connection to the service socket, or null when nothing listens there. */
export function tryConnect(path: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect(path)
    socket.once('connect', () => {
      socket.removeAllListeners('error')
      resolve(socket)
    })
    socket.once('error', () => resolve(null))
  })
}

/** The frames the service sends last: it ends its side of the connection after either. */
const LAST_FRAMES: ReadonlySet<number> = new Set([Frame.exit, Frame.reply])

/** Sends one request and collects every frame of the answer. */
export async function request(socket: Socket, hello: Hello, onFrame: (type: number, payload: Buffer) => void): Promise<void> {
  const decoder = new FrameDecoder((type, payload) => {
    onFrame(type, payload)
    // Nothing follows the last frame; waiting for the service's close would add a turn of both
    // processes' event loops to every relayed command.
    if (LAST_FRAMES.has(type)) socket.destroy()
  })
  socket.on('data', (chunk: Buffer) => decoder.push(chunk))
  socket.write(encodeJson(Frame.hello, hello))
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve())
    socket.once('error', () => resolve())
  })
}

/**
 * Calls one operation in the service listening on `socket` and returns its reply: the result or
 * the error, or a refusal (a service of another build). Null when the connection ends first.
 */
export async function callOperationOn(socket: Socket, call: OperationCall, identity: Identity = currentIdentity()): Promise<Reply | null> {
  let reply: Reply | null = null
  await request(socket, { kind: 'call', ...call, ...identity }, (type, payload) => {
    if (type === Frame.reply) reply = JSON.parse(payload.toString('utf8')) as Reply
  })
  return reply
}
