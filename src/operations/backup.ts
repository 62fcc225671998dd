import { isAbsolute } from 'node:path'
import * as z from 'zod'
import { defineOperation, type Operation } from './operation.js'

function sizeText(bytes: number): string {
  return bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`
}

export const createBackupTool = defineOperation({
  name: 'create_backup',
  description:
    'Back up the whole brain into one file while it stays in use: a consistent copy of the database (pages, history, trash, links, tokens, embeddings), config.json and the migration ledger, with checksums. Default folder: $BRAIN_HOME/backups/. Returns {path, bytes, pages, created_at}. Needs the admin scope.',
  input: z.strictObject({
    to: z
      .string()
      .trim()
      .min(1)
      .max(4096)
      .refine((p) => isAbsolute(p), 'must be an absolute path')
      .optional()
      .describe('An absolute file or folder path for the backup (default: $BRAIN_HOME/backups/)'),
  }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { createBackup, backupPlace } = await import('../backup/index.js')
    const { db, config } = await ctx.brain()
    return createBackup(db, backupPlace(config), { to: args.to })
  },
  present: {
    text: (r) => `backed up ${r.pages} page${r.pages === 1 ? '' : 's'} to ${r.path} (${sizeText(r.bytes)})`,
  },
})

const listBackupsTool = defineOperation({
  name: 'list_backups',
  description: 'The backups in $BRAIN_HOME/backups/, newest first: path, when, size in bytes, pages, engine and the brain version that made each.',
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx) {
    const { listBackups, backupsDir } = await import('../backup/index.js')
    const { config } = await ctx.brain()
    const dir = backupsDir(config.home)
    return { dir, backups: listBackups(dir) }
  },
  present: {
    text: (r) => {
      if (r.backups.length === 0) return `No backups in ${r.dir}; make one with \`brain backup\`.`
      return r.backups.map((b) => `${b.createdAt.replace('T', ' ').slice(0, 19)}  ${sizeText(b.bytes).padStart(10)}  ${String(b.pages).padStart(7)} pages  ${b.path}`).join('\n')
    },
  },
  cli: { path: ['backup', 'list'], description: 'List the backups of this brain, newest first', options: [] },
})

export const backupTools: Operation[] = [createBackupTool, listBackupsTool]
