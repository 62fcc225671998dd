/** Reads server-sent events from /api/events until `wanted` matches one, or the time runs out. */
export async function readEvents(
  url: string,
  headers: Record<string, string>,
  wanted: (event: string, data: any) => boolean,
  timeoutMs = 30_000,
  onOpen?: () => Promise<void>,
): Promise<{ event: string; data: any; seen: Array<{ event: string; data: any }> }> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  const seen: Array<{ event: string; data: any }> = []
  try {
    const response = await fetch(url, { headers, signal: controller.signal })
    if (!response.ok || !response.body) throw new Error(`events: HTTP ${response.status}`)
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    let opened = false
    for (;;) {
      const { value, done } = await reader.read()
      if (done) throw new Error('the event stream ended')
      buffer += value
      let cut
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut)
        buffer = buffer.slice(cut + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (!event || data === undefined) continue
        const parsed = JSON.parse(data)
        seen.push({ event, data: parsed })
        if (event === 'hello' && !opened && onOpen) {
          opened = true
          await onOpen()
        }
        if (wanted(event, parsed)) return { event, data: parsed, seen }
      }
    }
  } finally {
    clearTimeout(timer)
    controller.abort()
  }
}
