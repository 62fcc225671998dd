import { Command, Option } from 'clipanion'
import { UsageError } from '../../errors/index.js'
import { BrainCommand } from '../brain-command.js'

export class UiCommand extends BrainCommand {
  static override paths = [['ui']]
  static override usage = Command.Usage({
    description: 'Open the brain in a browser (the local web app)',
    details:
      'The resident service serves the web app on 127.0.0.1 only and this prints a one-time sign-in link (it opens it too, on a desktop, unless --no-open); the link becomes a session cookie. On the server engine, `brain serve --http` serves the same app under /ui, signed in with an access token.',
    examples: [
      ['Open the web app', '$0 ui'],
      ['Print the link only', '$0 ui --no-open'],
    ],
  })
  port = Option.String('--port', { description: 'Port on 127.0.0.1 (default: any free port; fixed once the app runs)' })
  open = Option.Boolean('--open', true, { description: 'Open the link in a browser (--no-open: print it only)' })

  protected async run(): Promise<number> {
    const port = this.port === undefined ? 0 : Number(this.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('ui_invalid_port', `--port ${this.port} is not a port number.`)
    const host = this.context.host
    if (!host) {
      throw new UsageError(
        'ui_needs_service',
        'The web app runs in the brain service, which this command is not running in (BRAIN_NO_SERVICE is set, or this is a server-engine brain served elsewhere).',
        {
          hint: 'Unset BRAIN_NO_SERVICE and run `brain ui` again; on the server engine, run `brain serve --http` and open /ui.',
        },
      )
    }
    const app = await this.withBrain(({ db }) => host.webApp(db, { port, version: this.cli.binaryVersion ?? '0.0.0' }))
    const opened = this.open && this.isDesktop() ? await this.openBrowser(app.signInUrl) : false
    this.print({ url: `${app.base}/ui`, sign_in_url: app.signInUrl, opened }, () => `brain web app: ${app.base}/ui\nsign in (one use, 10 minutes): ${app.signInUrl}`)
    return 0
  }

  private isDesktop(): boolean {
    const env = this.context.env
    return process.platform === 'darwin' || process.platform === 'win32' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY)
  }

  private async openBrowser(url: string): Promise<boolean> {
    const { spawn } = await import('node:child_process')
    const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
    return new Promise((resolve) => {
      const child = spawn(opener, [url], { stdio: 'ignore', detached: true })
      child.once('error', () => resolve(false))
      child.once('spawn', () => {
        child.unref()
        resolve(true)
      })
    })
  }
}
