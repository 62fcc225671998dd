// An example ingestion source: polls an RSS feed and emits each item it has not seen as one
// text/html event. It uses only the published contract (`brain/ingestion`).
import { INGESTION_SOURCE_API_VERSION } from 'brain/ingestion'

export const apiVersion = INGESTION_SOURCE_API_VERSION

const decode = (text) =>
  text
    .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim()

function field(item, name) {
  const match = item.match(new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`, 'i'))
  return match ? decode(match[1]) : ''
}

/** The items of an RSS 2.0 document: {id, title, link, description}. */
export function parseFeed(xml) {
  return [...xml.matchAll(/<item\b[^>]*>([\s\S]*?)<\/item>/gi)].map(([, item]) => {
    const link = field(item, 'link')
    return { id: field(item, 'guid') || link, title: field(item, 'title'), link, description: field(item, 'description') }
  })
}

/**
 * @param {{ url: string, interval_ms?: number }} options
 * @returns {import('brain/ingestion').IngestionSource}
 */
export function createSource(options) {
  if (typeof options.url !== 'string') throw new Error('brain-ingestion-source-feed needs options.url')
  const interval = typeof options.interval_ms === 'number' ? options.interval_ms : 15 * 60_000
  const seen = new Set()
  return {
    id: 'feed',
    async run(ctx) {
      while (!ctx.signal.aborted) {
        const response = await fetch(options.url, { signal: ctx.signal })
        if (!response.ok) throw new Error(`feed ${options.url} answered ${response.status}`)
        for (const item of parseFeed(await response.text())) {
          if (seen.has(item.id)) continue
          const outcome = await ctx.emit({
            content_type: 'text/html',
            content: `<h1>${item.title}</h1>\n${item.description}`,
            source_id: 'feed',
            source_uri: item.link || options.url,
            received_at: new Date(ctx.now()).toISOString(),
            metadata: { title: item.title },
          })
          if (outcome.status !== 'rate_limited') seen.add(item.id)
        }
        await ctx.sleep(interval).catch(() => undefined)
      }
    },
  }
}

export default createSource
