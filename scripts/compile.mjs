#!/usr/bin/env node
/**
 * Compiles the TypeScript sources (src, workers, supervisor, test, bench) to dist/, one JavaScript
 * file and its source map per source, then stamps dist/.compiled.
 *
 *   node scripts/compile.mjs
 *
 * Why not tsc: tsc checks the types of the whole program before it writes a file, about 20 s of
 * one core on every build, and `npm run typecheck` checks the same tree again. Here each file is
 * only stripped of its types (esbuild, about 2 s for all of them); `npm run typecheck` is the one
 * place types are checked, with `isolatedModules`, which proves that stripping one file at a time
 * means what tsc would emit.
 *
 * A compiled file whose source is gone is removed, so a deleted test cannot go on running from
 * dist/.
 */
import { build } from 'esbuild'
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const FOLDERS = ['src', 'workers', 'supervisor', 'test', 'bench']

function sourcesUnder(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourcesUnder(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

function compiledUnder(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return compiledUnder(path)
    return /\.js(\.map)?$/.test(entry.name) ? [path] : []
  })
}

const sources = FOLDERS.flatMap((folder) => sourcesUnder(join(root, folder)))
await build({
  entryPoints: sources,
  outdir: dist,
  outbase: root,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
})

const expected = new Set(sources.map((source) => relative(root, source).replace(/\.ts$/, '.js')))
for (const file of FOLDERS.flatMap((folder) => compiledUnder(join(dist, folder)))) {
  if (!expected.has(relative(dist, file).replace(/\.map$/, ''))) rmSync(file)
}
writeFileSync(join(dist, '.compiled'), `${new Date().toISOString()}\n`)
