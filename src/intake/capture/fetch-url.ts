/**
 * The one network read of the converters' entry paths: `capture --url`. http and https only, a
 * time limit, a size cap, at most five redirects, and an address check after DNS resolution on
 * every hop (the connection goes to the address that was checked, so a second lookup cannot
 * point it elsewhere).
 */
import { lookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { UsageError, ValidationError } from '../../errors/index.js'

export const MAX_REDIRECTS = 5

export interface FetchOptions {
  maxBytes: number
  timeoutMs: number
  /** Let the URL reach loopback, private, link-local and metadata addresses. */
  allowPrivate: boolean
  /** `host:port`s exempt from the address check (a known local service), every other hop still checked. */
  allowHosts?: readonly string[]
}

export interface FetchedUrl {
  /** The URL after redirects. */
  url: string
  contentType: string
  bytes: Uint8Array
  fetchedAt: string
}

const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4')
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['fd00:ec2::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6')
}

/** Loopback, private, link-local (cloud metadata at 169.254.169.254 among them), multicast and unspecified addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
    if (mapped) return blocked.check(mapped[1]!, 'ipv4')
    return blocked.check(address, 'ipv6')
  }
  return blocked.check(address, 'ipv4')
}

function refusedAddress(url: URL, address: string): ValidationError {
  return new ValidationError('url_private_address', `${url.host} resolves to ${address}, a loopback, private, link-local or metadata address; it was not fetched.`, {
    hint: 'Pass --allow-private to capture from your own network.',
  })
}

async function vettedAddress(url: URL, allowPrivate: boolean, allowHosts: readonly string[]): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const found = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => [])
  if (found.length === 0) throw new ValidationError('url_unresolved', `${url.hostname} does not resolve.`, { hint: 'Check the URL.' })
  if (!allowPrivate && !allowHosts.includes(url.host)) {
    const bad = found.find((a) => isPrivateAddress(a.address))
    if (bad) throw refusedAddress(url, bad.address)
  }
  return found[0]!
}

function checkUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError('invalid_url', `"${raw.slice(0, 200)}" is not a URL.`, { hint: 'Give an http:// or https:// URL.' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('invalid_url', `Only http and https URLs are captured, not ${url.protocol}`, { hint: 'Give an http:// or https:// URL.' })
  return url
}

/** One request to a vetted address; resolves with the response head. */
function send(url: URL, target: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      signal,
      headers: { 'user-agent': 'brain-capture', accept: 'text/html, application/pdf, text/markdown, text/plain;q=0.9, */*;q=0.5' },
      lookup: (_host, _opts, callback) => callback(null, target.address, target.family),
    })
    req.on('response', resolve)
    req.on('error', reject)
    req.end()
  })
}

async function readCapped(response: IncomingMessage, url: URL, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers['content-length'] ?? NaN)
  const tooLarge = (): ValidationError => new ValidationError('url_too_large', `${url.href} is larger than ${maxBytes} bytes; it was not captured.`, { hint: 'Raise BRAIN_FETCH_MAX_BYTES.' })
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw tooLarge()
  }
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of response) {
    total += (chunk as Buffer).length
    if (total > maxBytes) {
      response.destroy()
      throw tooLarge()
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Fetches a URL for capture: http(s), redirects followed (each vetted), size and time capped. */
export async function fetchUrl(raw: string, options: FetchOptions): Promise<FetchedUrl> {
  let url = checkUrl(raw)
  const signal = AbortSignal.timeout(options.timeoutMs)
  try {
    for (let hop = 0; ; hop++) {
      const target = await vettedAddress(url, options.allowPrivate, options.allowHosts ?? [])
      const response = await send(url, target, signal)
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        response.resume()
        if (hop >= MAX_REDIRECTS) throw new ValidationError('url_too_many_redirects', `${raw} redirects more than ${MAX_REDIRECTS} times.`, { hint: 'Capture the final URL.' })
        url = checkUrl(new URL(response.headers.location, url).href)
        continue
      }
      if (status < 200 || status >= 300) {
        response.resume()
        throw new ValidationError('url_http_error', `${url.href} answered HTTP ${status}.`, { hint: 'Check the URL.' })
      }
      const bytes = await readCapped(response, url, options.maxBytes)
      return { url: url.href, contentType: String(response.headers['content-type'] ?? 'application/octet-stream'), bytes, fetchedAt: new Date().toISOString() }
    }
  } catch (err) {
    if (signal.aborted) throw new ValidationError('url_timeout', `${raw} took longer than ${options.timeoutMs} ms; it was not captured.`, { hint: 'Try again, or raise BRAIN_FETCH_TIMEOUT_MS.' })
    if (err instanceof Error && 'code' in err && typeof (err as { errorClass?: unknown }).errorClass === 'string') throw err
    throw new ValidationError('url_fetch_failed', `${url.href} could not be fetched: ${err instanceof Error ? err.message : String(err)}`, { hint: 'Check the URL and your network.' })
  }
}

/** `web/<host>/<path>`: the URL's host and path, lower-cased, as slug segments; the query is left out. */
export function webSlugForUrl(raw: string): string {
  const url = new URL(raw)
  const clean = (s: string): string =>
    s
      .toLowerCase()
      .replace(/\.(x?html?|php|aspx?)$/, '')
      .replace(/[^a-z0-9._-]+/g, '-')
      // From the first dash of a run only, so a long run inside a segment costs its length.
      .replace(/^-+|(?<!-)-+$/g, '')
      .slice(0, 80)
  const parts = url.pathname
    .split('/')
    .map((p) => clean(decodeURIComponent(p)))
    .filter((p) => p !== '' && p !== '.' && p !== '..')
  return ['web', clean(url.hostname) || 'host', ...(parts.length > 0 ? parts : ['index'])].join('/')
}
