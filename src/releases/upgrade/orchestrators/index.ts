import type { VersionOrchestrator } from '../orchestrator.js'
import { compareVersionText as compareVersions } from '../../version/index.js'
import { v0_22_4 } from './v0.22.4.js'
import { v0_38_0_0 } from './v0.38.0.0.js'

/** Every version orchestrator, oldest first. */
export const ORCHESTRATORS: readonly VersionOrchestrator[] = [v0_22_4, v0_38_0_0].sort((a, b) => compareVersions(a.version, b.version))
