import type { BrainEnv } from '../../config/index.js'
import { BrainError, UsageError } from '../../errors/index.js'
import { compareVersions, formatVersion, parseVersion, upgradeKind, type ReleaseVersion, type UpgradeKind } from '../version/index.js'

/** The project's releases on its code host; BRAIN_UPDATE_FEED_URL points elsewhere (a mirror, a test feed). */
export const DEFAULT_RELEASES_FEED_URL = 'https://api.github.com/repos/brain-project/brain/releases'
export const FEED_TIMEOUT_MS = 10_000

/** The releases feed answered, but not with a list of releases. */
export class UpdateFeedError extends BrainError {
  override readonly errorClass = 'UpdateFeedError'
}

export interface ChangelogEntry {
  version: string
  name: string | null
  publishedAt: string | null
  url: string | null
  notes: string
}

export interface UpdateCheck {
  status: 'update_available' | 'up_to_date' | 'offline'
  current: string
  /** Newest release in the feed (null offline or when the feed lists none). */
  latest: string | null
  /** What kind of step `latest` is; a patch step is not reported as an update. */
  kind: UpgradeKind | null
  /** Set when only a patch-level release is newer: it is skipped, not offered. */
  skippedPatch: string | null
  feedUrl: string
  /** Release notes of every release after `current` up to `latest`, newest first (only with an update). */
  changelog: ChangelogEntry[]
  message: string
}

interface FeedRelease {
  version: ReleaseVersion
  entry: ChangelogEntry
}

export function updateFeedUrl(env: BrainEnv): string {
  const raw = env.BRAIN_UPDATE_FEED_URL?.trim() || DEFAULT_RELEASES_FEED_URL
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError('invalid_update_feed_url', `BRAIN_UPDATE_FEED_URL is not a URL: ${raw}`, { hint: 'Use an http(s) URL of a releases feed (a JSON list of releases with tag_name and body).' })
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError('invalid_update_feed_url', `BRAIN_UPDATE_FEED_URL must be http(s), not ${url.protocol}`, { hint: 'Use an http(s) URL.' })
  }
  return url.toString()
}

function parseFeed(body: unknown, feedUrl: string): FeedRelease[] {
  if (!Array.isArray(body)) {
    throw new UpdateFeedError('update_feed_invalid', `The releases feed at ${feedUrl} did not return a list of releases.`, {
      hint: 'Point BRAIN_UPDATE_FEED_URL at a releases feed (a JSON array of {tag_name, body}).',
    })
  }
  const releases: FeedRelease[] = []
  for (const item of body as Array<Record<string, unknown>>) {
    if (item === null || typeof item !== 'object' || item.draft === true || item.prerelease === true) continue
    const tag = typeof item.tag_name === 'string' ? item.tag_name : ''
    const version = parseVersion(tag)
    // Tags that are not four-part versions (nightlies, other tools in the same repository) are not releases of brain.
    if (!version) continue
    releases.push({
      version,
      entry: {
        version: formatVersion(version),
        name: typeof item.name === 'string' && item.name !== '' ? item.name : null,
        publishedAt: typeof item.published_at === 'string' ? item.published_at : null,
        url: typeof item.html_url === 'string' ? item.html_url : null,
        notes: typeof item.body === 'string' ? item.body.trim() : '',
      },
    })
  }
  return releases.sort((a, b) => compareVersions(b.version, a.version))
}

function isNetworkFailure(err: unknown): boolean {
  // fetch rejects with a TypeError for DNS, refused and reset connections, and with an abort/timeout error when the timer fires.
  return err instanceof TypeError || (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
}

async function fetchFeed(feedUrl: string, timeoutMs: number): Promise<unknown | 'offline'> {
  let response: Response
  try {
    response = await fetch(feedUrl, { headers: { accept: 'application/vnd.github+json, application/json', 'user-agent': 'brain-check-update' }, signal: AbortSignal.timeout(timeoutMs) })
  } catch (err) {
    if (isNetworkFailure(err)) return 'offline'
    throw err
  }
  if (!response.ok) {
    throw new UpdateFeedError('update_feed_http_error', `The releases feed at ${feedUrl} answered HTTP ${response.status}.`, {
      hint: response.status === 403 || response.status === 429 ? 'The code host is rate-limiting this address; try again later.' : 'Check BRAIN_UPDATE_FEED_URL, or try again later.',
    })
  }
  try {
    return await response.json()
  } catch (err) {
    throw new UpdateFeedError('update_feed_invalid', `The releases feed at ${feedUrl} did not return JSON.`, { hint: 'Check BRAIN_UPDATE_FEED_URL.', cause: err })
  }
}

/** Compares the running release with the feed; only a newer minor or major release is an update. */
export async function checkForUpdate(currentText: string, feedUrl: string, options: { timeoutMs?: number } = {}): Promise<UpdateCheck> {
  const current = parseVersion(currentText)
  if (!current) throw new UpdateFeedError('invalid_version', `The running version "${currentText}" is not A.B.C.D.`)
  const base = { current: formatVersion(current), feedUrl, changelog: [] as ChangelogEntry[], skippedPatch: null }
  const body = await fetchFeed(feedUrl, options.timeoutMs ?? FEED_TIMEOUT_MS)
  if (body === 'offline') {
    return { ...base, status: 'offline', latest: null, kind: null, message: `Could not reach the releases feed at ${feedUrl}; you appear to be offline. Nothing was checked.` }
  }
  const releases = parseFeed(body, feedUrl)
  const newest = releases[0]
  if (!newest) return { ...base, status: 'up_to_date', latest: null, kind: null, message: `The releases feed lists no releases; ${base.current} is the newest known.` }
  const kind = upgradeKind(current, newest.version)
  const latest = formatVersion(newest.version)
  if (kind === 'major' || kind === 'minor') {
    const changelog = releases.filter((r) => compareVersions(r.version, current) > 0).map((r) => r.entry)
    return { ...base, status: 'update_available', latest, kind, changelog, message: `brain ${latest} is available (a ${kind} release; you have ${base.current}).` }
  }
  if (kind === 'patch') {
    return { ...base, status: 'up_to_date', latest, kind, skippedPatch: latest, message: `brain ${base.current} is up to date (patch release ${latest} skipped).` }
  }
  return { ...base, status: 'up_to_date', latest, kind, message: `brain ${base.current} is up to date.` }
}
