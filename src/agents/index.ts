/**
 * Coding agents and the brain: the hook events brain answers (what an agent sends on stdin, what
 * it may print back), the capture of an agent's session transcript as a page, and installing
 * brain into an agent's own files (its MCP server entry, its hooks, an instructions block in its
 * rules file) without disturbing what other tools put there.
 * May import: config, convert, db, errors, models, pages, util.
 */
export { hookSpec, hookEvents, parseHookInput, hookReply, isCompactedStart, recallContext, orientationText, type HookSpec, type HookInput, type HookAction, type HookReplyForm } from './hook-events.js'
export { captureTranscript, sessionSlug, type TranscriptCapture, type TranscriptReceipt } from './capture-transcript.js'
export { AGENTS, isAgentName, agentTargets, type AgentName, type Scope, type FileTarget } from './targets.js'
export { planInstall, applyInstall, planDiff, runInstall, type FileChange, type FileStatus, type InstallRequest, type InstallOutcome } from './install.js'
export { splitCommandLine } from './command-line.js'
export { checkCommand, launcherPath, type CommandCheck } from './launcher.js'
export { installedAgents, pendingSteps, type InstalledAgent } from './status.js'
export { editTomlTable } from './toml-table.js'
export { editRulesBlock, BLOCK_BEGIN, BLOCK_END } from './rules-block.js'
