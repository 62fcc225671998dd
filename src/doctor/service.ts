import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config/index.js'
import { check, type DoctorCheck } from './types.js'
import { processAlive } from '../util/process-alive.js'
import { usesServer } from '../db/index.js'

interface ServiceState {
  pid: number
  version?: string
  socket?: string
  startedAt?: string
}

interface LockOwner {
  pid: number
  command?: string
}

function readJson<T extends { pid: number }>(path: string): T | 'invalid' | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  try {
    const value = JSON.parse(text) as Partial<T>
    return typeof value.pid === 'number' ? (value as T) : 'invalid'
  } catch {
    return 'invalid'
  }
}

function serviceCheck(config: Config, state: ServiceState, version: string): DoctorCheck {
  const socket = state.socket ?? join(config.home, 'brain.sock')
  if (state.pid !== process.pid && !processAlive(state.pid)) {
    return check('service', 'warn', `service.json names process ${state.pid}, which is not running (a stale file; the next command starts a new service)`)
  }
  if (!existsSync(socket)) return check('service', 'warn', `the resident service (pid ${state.pid}) is running but its socket ${socket} is missing`)
  if (state.version && state.version !== version) {
    return check('service', 'warn', `the resident service (pid ${state.pid}) runs version ${state.version}, this build is ${version}; it restarts on the next command`)
  }
  return check('service', 'ok', `resident service pid ${state.pid}${state.version ? ` (version ${state.version})` : ''} on ${socket}`)
}

function lockCheck(config: Config): DoctorCheck {
  if (usesServer(config.engine)) return check('service', 'ok', 'no resident service; the server engine is shared by every process')
  const lockPath = join(config.engine.dataDir, '..', 'db.lock')
  const owner = readJson<LockOwner>(lockPath)
  if (owner === null) return check('service', 'ok', 'no resident service; the embedded brain is not locked')
  if (owner === 'invalid') return check('service', 'warn', `the lock file ${lockPath} is unreadable (it is replaced on the next open)`)
  if (owner.pid === process.pid) return check('service', 'ok', 'the embedded brain is open in this process')
  if (!processAlive(owner.pid)) return check('service', 'warn', `stale lock ${lockPath}: process ${owner.pid} is gone (the next open takes it over)`)
  return check('service', 'warn', `the embedded brain is held by process ${owner.pid}${owner.command ? ` (${owner.command})` : ''}; other commands wait for it or fail`)
}

/**
 * The resident service (`service.json` and its socket) or, without one, the embedded engine's
 * lock file. Read from files only, before the database is opened.
 */
export function checkServiceOrLock(config: Config, version: string): DoctorCheck {
  const state = readJson<ServiceState>(join(config.home, 'service.json'))
  if (state === 'invalid') return check('service', 'warn', `${join(config.home, 'service.json')} is not valid JSON`)
  return state ? serviceCheck(config, state, version) : lockCheck(config)
}
