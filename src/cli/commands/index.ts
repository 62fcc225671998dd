import type { CommandClass } from 'clipanion'
import { CaptureCommand } from './capture.js'
import { CheckResolvableCommand } from './check-resolvable.js'
import { CheckUpdateCommand } from './check-update.js'
import { ConfigGetCommand, ConfigListCommand, ConfigSetCommand } from './config.js'
import { DreamCommand } from './dream.js'
import { EmbedCommand } from './embed.js'
import { ImportCommand } from './import.js'
import { InitCommand } from './init.js'
import { IntegrationsDashboardCommand, IntegrationsDoctorCommand, IntegrationsListCommand, IntegrationsShowCommand, IntegrationsStatsCommand, IntegrationsStatusCommand, IntegrationsTestCommand } from './integrations.js'
import { JobsCancelCommand, JobsGetCommand, JobsListCommand, JobsRetryCommand, JobsStatsCommand, JobsSubmitCommand, JobsSupervisorCommand, JobsWorkCommand } from './jobs.js'
import { DeleteCommand, GetCommand, ListCommand, PutCommand, TagCommand, UntagCommand } from './pages.js'
import { QueryCommand, SearchCommand } from './search.js'
import { ReposAddCommand, ReposListCommand, ReposRemoveCommand, ReposSetCommand, SourcesAddCommand, SourcesListCommand, SourcesRemoveCommand, SourcesSetCommand } from './sources.js'
import { SyncCommand } from './sync.js'

/** Every command; each file imports its heavy modules inside `run`, so start-up stays fast. */
export const commands: CommandClass[] = [
  InitCommand,
  ConfigGetCommand,
  ConfigSetCommand,
  ConfigListCommand,
  PutCommand,
  GetCommand,
  ListCommand,
  DeleteCommand,
  TagCommand,
  UntagCommand,
  CaptureCommand,
  SearchCommand,
  QueryCommand,
  EmbedCommand,
  ImportCommand,
  SyncCommand,
  SourcesAddCommand,
  SourcesListCommand,
  SourcesRemoveCommand,
  SourcesSetCommand,
  ReposAddCommand,
  ReposListCommand,
  ReposRemoveCommand,
  ReposSetCommand,
  JobsSubmitCommand, JobsListCommand, JobsGetCommand, JobsStatsCommand, JobsCancelCommand, JobsRetryCommand, JobsWorkCommand, JobsSupervisorCommand,
  DreamCommand,
  IntegrationsDashboardCommand, IntegrationsListCommand, IntegrationsShowCommand, IntegrationsStatusCommand, IntegrationsDoctorCommand, IntegrationsStatsCommand, IntegrationsTestCommand,
  CheckResolvableCommand,
  CheckUpdateCommand,
]
