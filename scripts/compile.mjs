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

/** The files under `dir` whose names pass `wanted`, at any depth. */
function filesUnder(dir, wanted) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return filesUnder(path, wanted)
    return wanted(entry.name) ? [path] : []
  })
}

const sources = FOLDERS.flatMap((folder) => filesUnder(join(root, folder), (name) => name.endsWith('.ts') && !name.endsWith('.d.ts')))
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
for (const file of FOLDERS.flatMap((folder) => filesUnder(join(dist, folder), (name) => /\.js(\.map)?$/.test(name)))) {
  if (!expected.has(relative(dist, file).replace(/\.map$/, ''))) rmSync(file)
}
writeFileSync(join(dist, '.compiled'), `${new Date().toISOString()}\n`)
