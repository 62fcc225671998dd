/**
 * An agent's memory, read by operations and written by the page pipeline, so a remembered fact
 * has the history, write-through and provenance of any other write: `recall` says what one
 * conversation turn needs unasked (entities named by title or alias, their summaries and newest
 * timeline entries, code definitions), from the active source only, once per session, within a
 * token budget; `remember` writes a dated timeline entry through the normal page write; `startSession`
 * says what the active source holds and, after a compaction, lets the session be told
 * everything again.
 * May import: db, embedding, errors, links, pages.
 */
export { recall, recallLine, boundedTurn, DEFAULT_RECALL_BUDGET, type RecallInput, type RecallItem, type RecallResult } from './recall.js'
export { remember, type RememberInput, type RememberResult, type RememberedPage } from './remember.js'
export { startSession, type SessionStart, type SessionStartInput } from './session-start.js'
export { sourceOfDirectory } from './source-dir.js'
export { SESSION_TTL_HOURS, forgetSession } from './sessions.js'
