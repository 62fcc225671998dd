import { Command, Option } from 'clipanion'
import type { ServiceStatus } from '../../service/index.js'
import { BrainCommand } from '../brain-command.js'

function describe(status: ServiceStatus): string {
  const idle = status.idleTimeoutMs > 0 ? `${Math.round(status.idleTimeoutMs / 1000)}s` : 'never'
  return [
    `brain service running: pid ${status.pid}, version ${status.version}, build ${status.build}, since ${status.startedAt}`,
    `socket:  ${status.socket}`,
    `clients: ${status.clients}, running jobs: ${status.runningJobs}, idle exit after: ${idle}`,
    `brains:  ${status.brains.length > 0 ? status.brains.join(', ') : '(none open yet)'}`,
  ].join('\n')
}

abstract class ServiceCommand extends BrainCommand {
  protected async servicePaths(): Promise<import('../../service/index.js').ServicePaths> {
    const { servicePaths } = await import('../../service/paths.js')
    return servicePaths((await this.loadConfig()).home)
  }

  protected forwardedEnv(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.context.env).filter((e): e is [string, string] => e[1] !== undefined))
  }
}

export class ServiceStatusCommand extends ServiceCommand {
  static override paths = [['service', 'status']]
  static override usage = Command.Usage({
    description: 'Show whether the resident brain service runs, and what it is doing',
    details: 'Exits 0 when the service runs and 3 when it does not.',
  })

  protected async run(): Promise<number> {
    const { serviceStatus } = await import('../../service/control.js')
    const status = await serviceStatus(await this.servicePaths())
    if (!status) {
      this.print({ running: false }, () => 'brain service not running')
      return 3
    }
    this.print({ running: true, ...status }, () => describe(status))
    return 0
  }
}

export class ServiceStartCommand extends ServiceCommand {
  static override paths = [['service', 'start']]
  static override usage = Command.Usage({
    description: 'Start the resident brain service (commands start it on demand anyway)',
    details: 'With --foreground the service runs in this process and logs to stderr until stopped (SIGTERM, SIGINT or `brain service stop`): for systemd units and debugging.',
  })
  foreground = Option.Boolean('--foreground', false, { description: 'Run in this process instead of in the background' })

  protected async run(): Promise<number> {
    if (this.foreground) return this.runForeground()
    const { startService } = await import('../../service/control.js')
    const status = await startService(await this.servicePaths(), this.forwardedEnv())
    if (!status) {
      this.context.stderr.write('brain: the brain service did not answer after starting.\n')
      return 1
    }
    this.print({ running: true, ...status }, () => describe(status))
    return 0
  }

  private async runForeground(): Promise<number> {
    const config = await this.loadConfig()
    // The embedded engine's WebAssembly compiles on V8's background thread while the service loads.
    if (config.remote === null) await (await import('../../db/open.js')).prepareToOpen(config.engine)
    const { BrainService } = await import('../../service/server.js')
    const { streamLogger } = await import('../../util/logger.js')
    const stderr = this.context.stderr
    const logger = streamLogger({ write: (text: string) => stderr.write(`${new Date().toISOString()} ${text}`) }, 'brain service')
    const service = new BrainService(config, logger, {
      runCli: this.context.runCli,
      callOperation: async (call, host, signal) => (await import('../call-operation.js')).callOperation(call, { host, signal }),
      answerHook: async (request, input, host, signal) => (await import('../hook-service.js')).answerHookInService(request, input, host, signal),
      warmHooks: async (host) => (await import('../hook-service.js')).warmHookPath(host, config, this.forwardedEnv()),
    })
    await service.start()
    const onSignal = (signal: NodeJS.Signals): void => void service.stop(`received ${signal}`)
    process.once('SIGTERM', onSignal)
    process.once('SIGINT', onSignal)
    // A stray rejection or exception in one command must not end everyone's service.
    process.on('unhandledRejection', (err) => logger.error(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`))
    process.on('uncaughtException', (err) => logger.error(`uncaught exception: ${err.stack ?? err.message}`))
    void service.warmUp()
    await service.stopped
    return 0
  }
}

export class ServiceStopCommand extends ServiceCommand {
  static override paths = [['service', 'stop']]
  static override usage = Command.Usage({ description: 'Stop the resident brain service (running commands are interrupted; jobs go back to the queue)' })

  protected async run(): Promise<number> {
    const { stopService } = await import('../../service/control.js')
    const stopped = await stopService(await this.servicePaths())
    if (!stopped) {
      this.print({ stopped: false, running: false }, () => 'brain service not running')
      return 0
    }
    this.print({ stopped: stopped.exited, pid: stopped.pid }, () => (stopped.exited ? `stopped brain service ${stopped.pid}` : `brain service ${stopped.pid} is still stopping`))
    return stopped.exited ? 0 : 1
  }
}
