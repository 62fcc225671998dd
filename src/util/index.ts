/**
 * Small helpers every layer may use, importing nothing of brain but errors: loggers, the package
 * root, process liveness, node's arguments for the long-running processes brain starts, JSON
 * shaping of results (snake_case for agents), the one bounded front-matter reader, and paths that
 * must stay inside a root.
 * May import: errors.
 */
export { stderrLogger, streamLogger, silentLogger, memoryLogger, type Logger } from './logger.js'
export { packageRoot } from './package-root.js'
export { processAlive } from './process-alive.js'
export { backgroundThreadPoolSize, longRunningNodeArgs } from './background-threads.js'
export { toSnakeCaseKeys, toSnakeCaseJson, camelCaseKeys } from './json-shape.js'
export { FRONTMATTER_LIMITS, parseFrontmatter, parseYamlBlock, stringifyFrontmatter, readFrontmatterDoc } from './frontmatter-doc.js'
export { containedDirectory, lexicallyWithin, outsideRoot } from './contained-path.js'
export type { ParsedFrontmatter } from './frontmatter-doc.js'
export { proseLines, splitFrontmatterLines } from './markdown-prose.js'
export { leadingPropertyBlock } from './property-lines.js'
export type { JsonCamelCased } from './json-shape.js'
