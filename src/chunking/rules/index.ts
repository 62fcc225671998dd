import type { CodeLanguage } from '../languages.js'
import { cppRules, cRules, csharpRules, dartRules, javaRules, solidityRules } from './c-family.js'
import { cssRules, htmlRules, jsonRules, tomlRules, vueRules, yamlRules } from './data.js'
import { elixirRules, elmRules, ocamlRules } from './functional.js'
import { javascriptRules } from './javascript.js'
import { bashRules, luaRules, phpRules, pythonRules, rubyRules } from './scripting.js'
import { goRules, kotlinRules, rustRules, scalaRules, swiftRules, zigRules } from './systems.js'
import type { LanguageRules } from './types.js'

export type { ClassifyContext, DefMatch, LanguageRules } from './types.js'

const RULES: Readonly<Record<CodeLanguage, LanguageRules>> = {
  typescript: javascriptRules,
  tsx: javascriptRules,
  javascript: javascriptRules,
  python: pythonRules,
  ruby: rubyRules,
  go: goRules,
  rust: rustRules,
  java: javaRules,
  csharp: csharpRules,
  cpp: cppRules,
  c: cRules,
  php: phpRules,
  swift: swiftRules,
  kotlin: kotlinRules,
  scala: scalaRules,
  lua: luaRules,
  elixir: elixirRules,
  elm: elmRules,
  ocaml: ocamlRules,
  dart: dartRules,
  zig: zigRules,
  solidity: solidityRules,
  bash: bashRules,
  css: cssRules,
  html: htmlRules,
  vue: vueRules,
  json: jsonRules,
  yaml: yamlRules,
  toml: tomlRules,
}

export function rulesFor(lang: CodeLanguage): LanguageRules {
  return RULES[lang]
}
