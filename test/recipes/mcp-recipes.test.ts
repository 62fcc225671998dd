// test-runner: shares a process
/**
 * The MCP agent recipes parse: front matter with the fields `brain integrations` reads, and
 * every JSON configuration block is valid and points at `brain serve` or an /mcp endpoint.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import matter from 'gray-matter'
import t from 'tap'
import { packageRoot } from '../../src/util/package-root.js'

const dir = join(packageRoot(), 'recipes')
const recipes = readdirSync(dir).filter((f) => f.startsWith('mcp-') && f.endsWith('.md'))

interface ServerEntry {
  type?: string
  command?: string
  args?: string[]
  url?: string
  headers?: Record<string, string>
}

t.ok(recipes.length >= 5, 'one recipe per agent host and one for the HTTP server')

for (const file of recipes) {
  t.test(file, async (t) => {
    const parsed = matter(readFileSync(join(dir, file), 'utf8'), { language: 'yaml', engines: { js: () => ({}) } } as never)
    const data = parsed.data as Record<string, unknown>
    t.equal(data.id, file.replace(/\.md$/, ''), 'id matches the file name')
    t.type(data.name, 'string')
    t.ok(['infrastructure', 'senses', 'reflexes'].includes(String(data.category)), 'known category')
    t.ok(typeof data.description === 'string' && data.description.length > 20)
    t.ok(Array.isArray(data.requires), 'requires is a list')
    for (const requirement of data.requires as unknown[]) t.match(requirement, /^(env|bin|engine|file):\S+$/, 'requirements read kind:value')
    const blocks = [...parsed.content.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!)
    for (const block of blocks) {
      const config = JSON.parse(block) as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> }
      const entry = (config.mcpServers ?? config.servers)?.brain
      t.ok(entry, 'configures a server named brain')
      if (entry?.url !== undefined) {
        t.match(entry.url, /^https:\/\/[^/]+\/mcp$/, 'HTTP entries use an https /mcp endpoint')
        t.match(entry.headers?.Authorization ?? '', /^Bearer \S+$/, 'with a bearer token')
      } else {
        t.equal(entry?.command, 'brain')
        t.same(entry?.args, ['serve'])
      }
    }
  })
}
