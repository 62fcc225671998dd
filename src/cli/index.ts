/**
 * The command line: the program's entry (entry.ts decides between this process and the brain
 * service), the clipanion commands, and the commands generated from the operation catalogue.
 * The composition root: it registers the job handlers and may import every other folder.
 * May import: every folder.
 */
export { runCli, buildCli, processContext } from './main.js'
