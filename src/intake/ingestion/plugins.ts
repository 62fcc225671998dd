import { mkdir, readdir, readFile, readlink, rm, symlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError } from '../../errors/index.js'
import { packageRoot } from '../../util/package-root.js'
import { INGESTION_SOURCE_API_VERSION, type IngestionSource, type IngestionSourceFactory } from './contract.js'

export const PLUGIN_MANIFEST = 'brain.plugin.json'

/** `brain.plugin.json`: what a third-party source package declares. */
export interface PluginManifest {
  name: string
  /** The INGESTION_SOURCE_API_VERSION the plugin was written against. */
  api_version: number
  /** Entry module, relative to the manifest (default `index.js`). */
  entry?: string
  /** Passed to the plugin's factory. */
  options?: Record<string, unknown>
}

interface LoadedPlugin {
  dir: string
  manifest: PluginManifest
  source: IngestionSource
}

function manifestError(dir: string, problem: string): ConfigError {
  return new ConfigError('plugin_manifest_invalid', `${join(dir, PLUGIN_MANIFEST)} ${problem}.`, {
    hint: 'A manifest is JSON with "name" (string), "api_version" (number) and optionally "entry" and "options".',
  })
}

export async function readPluginManifest(dir: string): Promise<PluginManifest> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(join(dir, PLUGIN_MANIFEST), 'utf8'))
  } catch (err) {
    throw manifestError(dir, `cannot be read as JSON (${err instanceof Error ? err.message : String(err)})`)
  }
  const m = parsed as Partial<PluginManifest> | null
  if (!m || typeof m !== 'object' || typeof m.name !== 'string' || m.name === '') throw manifestError(dir, 'has no "name"')
  if (typeof m.api_version !== 'number') throw manifestError(dir, 'has no numeric "api_version"')
  if (m.entry !== undefined && typeof m.entry !== 'string') throw manifestError(dir, 'has a non-string "entry"')
  return { name: m.name, api_version: m.api_version, entry: m.entry, options: m.options && typeof m.options === 'object' ? m.options : {} }
}

/** Refuses a plugin written against another contract version, saying which side to upgrade. */
export function checkApiVersion(manifest: PluginManifest): void {
  if (manifest.api_version === INGESTION_SOURCE_API_VERSION) return
  const newer = manifest.api_version > INGESTION_SOURCE_API_VERSION
  throw new ConfigError(
    'plugin_api_version_mismatch',
    `Ingestion plugin ${manifest.name} needs source API version ${manifest.api_version}; this brain provides version ${INGESTION_SOURCE_API_VERSION}.`,
    {
      hint: newer
        ? `Upgrade brain to a release whose ingestion source API is version ${manifest.api_version}, or install an older release of ${manifest.name}.`
        : `Upgrade the plugin ${manifest.name} to a release built for source API version ${INGESTION_SOURCE_API_VERSION}, or remove it.`,
    },
  )
}

/** Loads one plugin folder: manifest, version check, entry module, factory. */
export async function loadPlugin(dir: string): Promise<LoadedPlugin> {
  const absolute = resolve(dir)
  const manifest = await readPluginManifest(absolute)
  checkApiVersion(manifest)
  const module = (await import(pathToFileURL(join(absolute, manifest.entry ?? 'index.js')).href)) as { default?: unknown; createSource?: unknown }
  const factory = (typeof module.createSource === 'function' ? module.createSource : module.default) as IngestionSourceFactory | undefined
  if (typeof factory !== 'function') throw manifestError(absolute, 'names an entry module without a default export or createSource function')
  const source = await factory(manifest.options ?? {})
  if (!source || typeof source.id !== 'string' || typeof source.run !== 'function') throw manifestError(absolute, 'names a factory that did not return a source ({id, run})')
  return { dir: absolute, manifest, source }
}

/** Folders below `root` holding a manifest (`$BRAIN_HOME/plugins/<name>/brain.plugin.json`). */
export async function discoverPluginDirs(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => [])
  const dirs: string[] = []
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const dir = join(root, entry.name)
    if (
      await readFile(join(dir, PLUGIN_MANIFEST)).then(
        () => true,
        () => false,
      )
    )
      dirs.push(dir)
  }
  return dirs.sort()
}

/**
 * Makes `import … from 'brain/ingestion'` work for plugins under `root`: a link
 * `root/node_modules/brain` to the running brain package, so plugins always bind to the brain
 * that loads them (never to a stale copy of their own).
 */
export async function linkBrainPackage(root: string): Promise<void> {
  const modules = join(root, 'node_modules')
  const link = join(modules, 'brain')
  const target = packageRoot()
  if ((await readlink(link).catch(() => null)) === target) return
  await mkdir(modules, { recursive: true })
  await rm(link, { recursive: true, force: true })
  await symlink(target, link, 'dir')
}
