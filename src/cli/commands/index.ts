import type { CommandClass } from 'clipanion'
import { CaptureCommand } from './capture.js'
import { ConfigGetCommand, ConfigListCommand, ConfigSetCommand } from './config.js'
import { InitCommand } from './init.js'
import { DeleteCommand, GetCommand, ListCommand, PutCommand, TagCommand, UntagCommand } from './pages.js'

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
]
