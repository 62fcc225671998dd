import type { CommandClass } from 'clipanion'
import type { CommandContext } from '../../service/index.js'
import { OPERATIONS } from '../../operations/index.js'
import { operationCommand } from '../operation-command.js'
import { AgentsInstallCommand, HookCommand } from './agents.js'
import { ApplyMigrationsCommand } from './apply-migrations.js'
import { AskCommand } from './ask.js'
import { BackupCommand, RepairCommand, RestoreCommand } from './backup.js'
import { CaptureCommand } from './capture.js'
import { CheckResolvableCommand } from './check-resolvable.js'
import { CheckUpdateCommand } from './check-update.js'
import { ConfigGetCommand, ConfigListCommand, ConfigSetCommand } from './config.js'
import { DreamCommand } from './dream.js'
import { EmbedCommand } from './embed.js'
import { ImportCommand } from './import.js'
import { IngestDaemonCommand, IngestStatusCommand, IngestSupervisorCommand } from './ingest.js'
import { FrontmatterInstallHookCommand, FrontmatterValidateCommand } from './frontmatter.js'
import { InitCommand } from './init.js'
import { ExtractCommand } from './links.js'
import {
  IntegrationsDashboardCommand,
  IntegrationsDoctorCommand,
  IntegrationsListCommand,
  IntegrationsShowCommand,
  IntegrationsStatsCommand,
  IntegrationsStatusCommand,
  IntegrationsTestCommand,
} from './integrations.js'
import { JobsEventsCommand } from './jobs-events.js'
import { JobsCancelCommand, JobsRetryCommand, JobsSubmitCommand, JobsSupervisorCommand, JobsWorkCommand } from './jobs.js'
import { ExportCommand } from './export.js'
import { UiCommand } from './ui.js'
import { DiffCommand, GetCommand, PutCommand } from './pages.js'
import { ModelsAddCommand, ModelsListCommand, ModelsPullCommand, ModelsUseCommand } from './models.js'
import { ReindexCommand } from './reindex.js'
import { ServeCommand } from './serve.js'
import { ReposAddCommand, ReposRemoveCommand, ReposSetCommand, SourcesAddCommand, SourcesRemoveCommand, SourcesSetCommand } from './sources.js'
import { ServiceStartCommand, ServiceStatusCommand, ServiceStopCommand } from './service.js'
import { SyncCommand } from './sync.js'

/** Every command; each file imports its heavy modules inside `run`, so start-up stays fast. */
export const commands: Array<CommandClass<CommandContext>> = [
  InitCommand,
  AgentsInstallCommand,
  HookCommand,
  ConfigGetCommand,
  ConfigSetCommand,
  ConfigListCommand,
  BackupCommand,
  RestoreCommand,
  RepairCommand,
  PutCommand,
  GetCommand,
  DiffCommand,
  ExportCommand,
  UiCommand,
  CaptureCommand,
  ReindexCommand,
  ModelsListCommand,
  ModelsAddCommand,
  ModelsUseCommand,
  ModelsPullCommand,
  EmbedCommand,
  ImportCommand,
  SyncCommand,
  SourcesAddCommand,
  SourcesRemoveCommand,
  SourcesSetCommand,
  ReposAddCommand,
  ReposRemoveCommand,
  ReposSetCommand,
  JobsSubmitCommand,
  JobsCancelCommand,
  JobsRetryCommand,
  JobsWorkCommand,
  JobsSupervisorCommand,
  JobsEventsCommand,
  DreamCommand,
  ServiceStatusCommand,
  ServiceStartCommand,
  ServiceStopCommand,
  ExtractCommand,
  IngestDaemonCommand,
  IngestStatusCommand,
  IngestSupervisorCommand,
  ServeCommand,
  FrontmatterValidateCommand,
  FrontmatterInstallHookCommand,
  ApplyMigrationsCommand,
  IntegrationsDashboardCommand,
  IntegrationsListCommand,
  IntegrationsShowCommand,
  IntegrationsStatusCommand,
  IntegrationsDoctorCommand,
  IntegrationsStatsCommand,
  IntegrationsTestCommand,
  CheckResolvableCommand,
  CheckUpdateCommand,
  AskCommand,
  ...OPERATIONS.filter((operation) => operation.cli !== undefined).map(operationCommand),
]
