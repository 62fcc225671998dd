/**
 * The registry of code languages: canonical ids, display names, file extensions,
 * fence tags and the grammar package that parses each one.
 *
 * Pure data and lookups; nothing here loads tree-sitter, so path classification
 * stays free for commands that never chunk code.
 */

const CODE_LANGUAGES = [
  'typescript',
  'tsx',
  'javascript',
  'python',
  'ruby',
  'go',
  'rust',
  'java',
  'csharp',
  'cpp',
  'c',
  'php',
  'swift',
  'kotlin',
  'scala',
  'lua',
  'elixir',
  'elm',
  'ocaml',
  'dart',
  'zig',
  'solidity',
  'bash',
  'css',
  'html',
  'vue',
  'json',
  'yaml',
  'toml',
] as const

export type CodeLanguage = (typeof CODE_LANGUAGES)[number]

/** Where a grammar's wasm lives: a package-relative path resolved through Node's resolver. */
export interface GrammarLocation {
  readonly specifier: string
}

interface LanguageInfo {
  readonly display: string
  /** Lower-case, with the leading dot. */
  readonly extensions: readonly string[]
  /** Fence info-string tags beyond the extensions (lower-case). */
  readonly fenceTags: readonly string[]
  readonly grammar: GrammarLocation
}

const REPOMIX = '@repomix/tree-sitter-wasms/out/'
const GRAMMARS = '@tree-sitter-grammars/'

function wasm(specifier: string): GrammarLocation {
  return { specifier }
}

const LANGUAGES: Readonly<Record<CodeLanguage, LanguageInfo>> = {
  typescript: {
    display: 'TypeScript',
    extensions: ['.ts', '.mts', '.cts'],
    fenceTags: ['ts', 'typescript'],
    grammar: wasm(REPOMIX + 'tree-sitter-typescript.wasm'),
  },
  tsx: { display: 'TSX', extensions: ['.tsx'], fenceTags: ['tsx'], grammar: wasm(REPOMIX + 'tree-sitter-tsx.wasm') },
  javascript: {
    display: 'JavaScript',
    extensions: ['.js', '.jsx', '.mjs', '.cjs'],
    fenceTags: ['js', 'javascript', 'jsx', 'node'],
    grammar: wasm(REPOMIX + 'tree-sitter-javascript.wasm'),
  },
  python: { display: 'Python', extensions: ['.py'], fenceTags: ['py', 'python', 'python3'], grammar: wasm(REPOMIX + 'tree-sitter-python.wasm') },
  ruby: { display: 'Ruby', extensions: ['.rb'], fenceTags: ['rb', 'ruby'], grammar: wasm(REPOMIX + 'tree-sitter-ruby.wasm') },
  go: { display: 'Go', extensions: ['.go'], fenceTags: ['go', 'golang'], grammar: wasm(REPOMIX + 'tree-sitter-go.wasm') },
  rust: { display: 'Rust', extensions: ['.rs'], fenceTags: ['rs', 'rust'], grammar: wasm(REPOMIX + 'tree-sitter-rust.wasm') },
  java: { display: 'Java', extensions: ['.java'], fenceTags: ['java'], grammar: wasm(REPOMIX + 'tree-sitter-java.wasm') },
  csharp: { display: 'C#', extensions: ['.cs'], fenceTags: ['c#', 'cs', 'csharp'], grammar: wasm(REPOMIX + 'tree-sitter-c_sharp.wasm') },
  cpp: {
    display: 'C++',
    extensions: ['.cpp', '.cc', '.cxx', '.hpp', '.hxx', '.hh'],
    fenceTags: ['cpp', 'c++'],
    grammar: wasm(REPOMIX + 'tree-sitter-cpp.wasm'),
  },
  c: { display: 'C', extensions: ['.c', '.h'], fenceTags: ['c'], grammar: wasm(REPOMIX + 'tree-sitter-c.wasm') },
  php: { display: 'PHP', extensions: ['.php'], fenceTags: ['php'], grammar: wasm(REPOMIX + 'tree-sitter-php.wasm') },
  swift: { display: 'Swift', extensions: ['.swift'], fenceTags: ['swift'], grammar: wasm(REPOMIX + 'tree-sitter-swift.wasm') },
  kotlin: {
    display: 'Kotlin',
    extensions: ['.kt', '.kts'],
    fenceTags: ['kt', 'kotlin'],
    grammar: wasm(GRAMMARS + 'tree-sitter-kotlin/tree-sitter-kotlin.wasm'),
  },
  scala: { display: 'Scala', extensions: ['.scala', '.sc'], fenceTags: ['scala'], grammar: wasm('tree-sitter-scala/tree-sitter-scala.wasm') },
  lua: { display: 'Lua', extensions: ['.lua'], fenceTags: ['lua'], grammar: wasm(GRAMMARS + 'tree-sitter-lua/tree-sitter-lua.wasm') },
  elixir: { display: 'Elixir', extensions: ['.ex', '.exs'], fenceTags: ['ex', 'elixir'], grammar: wasm('tree-sitter-elixir/tree-sitter-elixir.wasm') },
  elm: { display: 'Elm', extensions: ['.elm'], fenceTags: ['elm'], grammar: wasm('@elm-tooling/tree-sitter-elm/docs/js/tree-sitter-elm.wasm') },
  ocaml: { display: 'OCaml', extensions: ['.ml', '.mli'], fenceTags: ['ml', 'ocaml'], grammar: wasm('tree-sitter-ocaml/tree-sitter-ocaml.wasm') },
  dart: { display: 'Dart', extensions: ['.dart'], fenceTags: ['dart'], grammar: wasm(REPOMIX + 'tree-sitter-dart.wasm') },
  zig: { display: 'Zig', extensions: ['.zig'], fenceTags: ['zig'], grammar: wasm(GRAMMARS + 'tree-sitter-zig/tree-sitter-zig.wasm') },
  solidity: { display: 'Solidity', extensions: ['.sol'], fenceTags: ['sol', 'solidity'], grammar: wasm(REPOMIX + 'tree-sitter-solidity.wasm') },
  bash: {
    display: 'Bash',
    extensions: ['.sh', '.bash'],
    fenceTags: ['sh', 'bash', 'shell', 'zsh'],
    grammar: wasm('tree-sitter-bash/tree-sitter-bash.wasm'),
  },
  css: { display: 'CSS', extensions: ['.css'], fenceTags: ['css'], grammar: wasm(REPOMIX + 'tree-sitter-css.wasm') },
  html: { display: 'HTML', extensions: ['.html', '.htm'], fenceTags: ['html'], grammar: wasm('tree-sitter-html/tree-sitter-html.wasm') },
  vue: { display: 'Vue', extensions: ['.vue'], fenceTags: ['vue'], grammar: wasm(REPOMIX + 'tree-sitter-vue.wasm') },
  json: { display: 'JSON', extensions: ['.json'], fenceTags: ['json'], grammar: wasm('tree-sitter-json/tree-sitter-json.wasm') },
  yaml: { display: 'YAML', extensions: ['.yaml', '.yml'], fenceTags: ['yaml', 'yml'], grammar: wasm(GRAMMARS + 'tree-sitter-yaml/tree-sitter-yaml.wasm') },
  toml: { display: 'TOML', extensions: ['.toml'], fenceTags: ['toml'], grammar: wasm(GRAMMARS + 'tree-sitter-toml/tree-sitter-toml.wasm') },
}

/**
 * OCaml interface files use the sibling grammar from the same package: `val` specifications
 * are not valid implementation syntax and would otherwise parse as errors.
 */
const OCAML_INTERFACE_GRAMMAR: GrammarLocation = wasm('tree-sitter-ocaml/tree-sitter-ocaml_interface.wasm')

/** Well-known extension-less files that are unambiguously one language. */
const FILENAMES: Readonly<Record<string, CodeLanguage>> = {
  gemfile: 'ruby',
  rakefile: 'ruby',
  '.bashrc': 'bash',
  '.bash_profile': 'bash',
  '.zshrc': 'bash',
}

const BY_EXTENSION = new Map<string, CodeLanguage>()
const BY_FENCE_TAG = new Map<string, CodeLanguage>()
for (const id of CODE_LANGUAGES) {
  const info = LANGUAGES[id]
  for (const ext of info.extensions) {
    BY_EXTENSION.set(ext, id)
    // A fence tagged with a file extension (```cc, ```kts, ```mjs) means that language too.
    if (!BY_FENCE_TAG.has(ext.slice(1))) BY_FENCE_TAG.set(ext.slice(1), id)
  }
}
for (const id of CODE_LANGUAGES) {
  for (const tag of LANGUAGES[id].fenceTags) BY_FENCE_TAG.set(tag, id)
}

/** Every recognised code extension, lower-case with the leading dot, in registry order. */
export const CODE_EXTENSIONS: readonly string[] = Object.freeze([...BY_EXTENSION.keys()])

function baseName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  return path.slice(slash + 1)
}

export function languageForPath(path: string): CodeLanguage | null {
  const name = baseName(path).toLowerCase()
  const byName = FILENAMES[name]
  if (byName !== undefined) return byName
  const dot = name.lastIndexOf('.')
  if (dot < 0) return null
  return BY_EXTENSION.get(name.slice(dot)) ?? null
}

export function isCodePath(path: string): boolean {
  return languageForPath(path) !== null
}

/**
 * Maps a fence info string (or just its first word) to a language. Accepts the forms seen
 * in the wild: ```ts title="x", ```{.python}, ```ts:src/a.ts, ```C++ (case-insensitive).
 */
export function languageForFenceTag(tag: string): CodeLanguage | null {
  let word = tag.trim().split(/\s+/, 1)[0] ?? ''
  word = word
    .replace(/^\{\.?/, '')
    .replace(/\}$/, '')
    .toLowerCase()
  const exact = BY_FENCE_TAG.get(word)
  if (exact !== undefined) return exact
  const head = word.split(/[:,;]/, 1)[0] ?? ''
  return BY_FENCE_TAG.get(head) ?? null
}

export function displayLanguage(lang: CodeLanguage): string {
  return LANGUAGES[lang].display
}

export function isCodeLanguage(value: string): value is CodeLanguage {
  return Object.prototype.hasOwnProperty.call(LANGUAGES, value)
}

/** The grammar for a language; `.mli` paths get the OCaml interface grammar. */
export function grammarFor(lang: CodeLanguage, path: string): GrammarLocation {
  if (lang === 'ocaml' && path.toLowerCase().endsWith('.mli')) return OCAML_INTERFACE_GRAMMAR
  return LANGUAGES[lang].grammar
}
