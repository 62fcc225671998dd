import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'

export class InitCommand extends BrainCommand {
  static override paths = [['init']]
  static override usage = Command.Usage({
    description: 'Create or connect a brain',
    details: 'Without --url, creates the embedded brain in $BRAIN_HOME (default ~/.brain). With --url, uses a PostgreSQL server with pgvector and records the URL in $BRAIN_HOME/config.json.',
    examples: [
      ['Embedded brain', '$0 init'],
      ['Server engine', '$0 init --url postgres://user:pass@localhost:5432/brain'],
      ['Thin client of a remote brain', '$0 init --remote https://brain.example.org --token brain_…'],
      ['Thin client, signed in through the browser (OAuth)', '$0 init --remote https://brain.example.org'],
    ],
  })

  url = Option.String('--url', { description: 'PostgreSQL URL of the server engine' })
  remote = Option.String('--remote', { description: 'Thin client: use the brain served at this https URL (`brain serve --http`)' })
  token = Option.String('--token', { description: 'Access token for --remote (from `brain auth create` on the server); without it, sign in through the browser' })
  browser = Option.Boolean('--browser', true, { description: 'Open the sign-in page in a browser (--no-browser only prints its address)' })
  language = Option.String('--language', { description: 'Search language (text-search configuration, default english); see `brain reindex`' })
  noRetryConnect = Option.Boolean('--no-retry-connect', false, { description: 'Fail at once when the server is unreachable' })

  protected async run(): Promise<number> {
    if (this.remote !== undefined || this.token !== undefined) {
      const { initRemote } = await import('../remote-init.js')
      const stderr = this.context.stderr as NodeJS.WritableStream & { isTTY?: boolean }
      const result = await initRemote(this.context.env, this.remote, this.token, {
        onAuthorizationUrl: (url) => stderr.write(`Approve this brain on its consent page (owner token needed):\n${url}\nWaiting for the approval…\n`),
        openBrowser: this.browser && stderr.isTTY === true,
      })
      this.print(result, () => `brain ready: thin client of ${result.url} (${result.engine} engine, ${result.pages} pages)`)
      return 0
    }
    const { loadConfig, writeFileConfig, readFileConfig } = await import('../../config/index.js')
    const { validatePostgresUrl, redactUrl, usesServer, engineLocation } = await import('../../db/index.js')
    const env = this.url ? { ...this.context.env, BRAIN_DATABASE_URL: this.url } : this.context.env
    if (this.url) validatePostgresUrl(this.url)
    const config = loadConfig({ env, noRetryConnect: this.noRetryConnect })
    const { getSearchLanguage, setSearchLanguage } = await import('../../search/index.js')
    const { pages, language } = await this.withBrainOf(config, async ({ db }) => {
      if (this.language !== undefined) await setSearchLanguage(db, this.language)
      const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM pages')
      return { pages: rows[0]?.n ?? 0, language: await getSearchLanguage(db) }
    })
    const file = readFileConfig(config.home)
    writeFileConfig(config.home, this.url ? { ...file, engine: 'postgres', database_url: this.url } : { ...file, engine: file.engine ?? 'pglite' })
    const result = {
      engine: config.engine.kind,
      home: config.home,
      location: usesServer(config.engine) ? redactUrl(engineLocation(config.engine)) : engineLocation(config.engine),
      pages,
      search_language: language,
    }
    this.print(result, () => `brain ready: ${result.engine} at ${result.location} (${pages} pages, search language ${language})`)
    return 0
  }
}
