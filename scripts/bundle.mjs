#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/src/cli/entry.js) and the worker threads it starts into
 * dist/bundle/, which bin/brain.js runs when it is newer than the compiled build.
 *
 *   node scripts/bundle.mjs
 *
 * Why: every `brain` process used to load four hundred separate modules (the CLI, the page
 * stack, zod's locales, js-yaml, clipanion…). Node resolves each one (a walk up the folders to
 * its package.json) and compiles it on its own, about half of a one-shot command's CPU. One
 * entry file and a few shared chunks load the same code for about a fifth less CPU per command.
 *
 * What stays outside: packages with native parts, WebAssembly or data files found next to their
 * own modules (PGLite, the grammars, the models, pdf.js), and large packages a command loads
 * only on its own path (the MCP SDK, pg-boss, the converters). They load from node_modules as
 * before.
 *
 * The relay to the resident service (src/cli/forward.ts), which every command loads first, is also
 * bundled on its own as one CommonJS file: node starts a CommonJS file without its ES-module
 * loader, which is most of what a relayed command costs beside node itself.
 *
 * The worker threads are entries of their own, named as the code that starts them names them
 * (`new URL('./worker.js', import.meta.url)` from a chunk in the same folder), and every chunk
 * sits in that one folder, so those relative paths hold inside the bundle as they do in dist/.
 */
import { build } from 'esbuild'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'dist', 'bundle')

/** Small pure-JavaScript packages every command loads: bundled, so that they load as one file. */
const BUNDLED = new Set(['zod', 'clipanion', 'js-yaml', 'gray-matter', 'diff', 'p-limit'])

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const external = Object.keys(pkg.dependencies ?? {})
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`])

/**
 * The worker threads the code starts by a path beside its own module (`new Worker(new URL('./x.js',
 * import.meta.url))`), found in the sources, so a new one cannot be left out of the bundle.
 */
function workerEntries(dir) {
  const found = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) found.push(...workerEntries(path))
    else if (entry.name.endsWith('.ts')) {
      for (const match of readFileSync(path, 'utf8').matchAll(/new URL\('\.\/([\w-]+\.js)', import\.meta\.url\)/g)) {
        found.push(join(root, 'dist', relative(root, dirname(path)), match[1]))
      }
    }
  }
  return found
}

const entryPoints = [join(root, 'dist', 'src', 'cli', 'entry.js'), ...workerEntries(join(root, 'src'))]

/**
 * js-yaml 3 (bundled, through gray-matter too) requires esprima at load time for its
 * `!!js/function` type, which only its unsafe schemas use and front matter never reads (nothing
 * in a page runs). Loading esprima cost every command about 20 ms; without it the type cannot
 * even parse a function, which is what a reader of untrusted YAML wants anyway.
 */
const withoutEsprima = {
  name: 'without-esprima',
  setup(b) {
    b.onLoad({ filter: /js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      const contents = source.replace("esprima = _require('esprima');", 'esprima = undefined;')
      if (contents === source) throw new Error(`${args.path}: the esprima require was not found; update the bundle's plugin`)
      return { contents, loader: 'js' }
    })
  },
}

/** What both builds share: everything in, the packages above left out. */
const common = { bundle: true, platform: 'node', target: 'node20', external, sourcemap: true, logLevel: 'warning', plugins: [withoutEsprima] }

rmSync(outdir, { recursive: true, force: true })
await build({
  ...common,
  entryPoints,
  outdir,
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  splitting: true,
  format: 'esm',
  // Bundled CommonJS packages call require() for node's own modules; an ES module has none.
  banner: { js: "import { createRequire as __brainCreateRequire } from 'node:module'; const require = __brainCreateRequire(import.meta.url);" },
})
/** The CommonJS files bin/brain.js and the agents' launcher start first, each one file. */
for (const name of ['forward', 'hook-client']) {
  await build({
    ...common,
    entryPoints: [join(root, 'dist', 'src', 'cli', `${name}.js`)],
    outfile: join(outdir, `${name}.cjs`),
    format: 'cjs',
    // The package root and the modules beside it are found from the running module's own place.
    define: { 'import.meta.url': '__brainModuleUrl' },
    banner: { js: "const __brainModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    // The launcher starts the hook client as a program; bin/brain.js loads it and calls main.
    footer: name === 'hook-client' ? { js: 'if (require.main === module) void module.exports.main();' } : undefined,
  })
}
// A hook client compiled from an earlier build: the launchers of older installs named it.
rmSync(join(root, 'dist', 'src', 'cli', 'hook-client.cjs'), { force: true })
