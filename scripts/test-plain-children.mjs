/**
 * Loaded into every test process by scripts/test.sh, after tap's own preloads.
 *
 * tap's process tracker (@tapjs/processinfo) hooks every spawn so that each child process loads
 * it too. In a child it runs every module the child loads through a loader thread that reads the
 * file again and measures its lines, for coverage this suite does not collect: a brain command
 * the tests spawn used about twice the CPU it uses on its own. Emptying the spawn hook's listeners
 * starts children as a user starts them. The test process itself is still tracked.
 */
const tracker = globalThis[Symbol.for('process-on-spawn@*:singletonId')]
if (tracker !== undefined && Array.isArray(tracker.listeners)) tracker.listeners = []
