/**
 * A small, real snippet per language, and the symbols chunking must find in it.
 */
import type { CodeLanguage } from '../../src/chunking/index.js'
import { SNIPPETS_PART1 } from './snippets-part1.js'
import { SNIPPETS_PART2 } from './snippets-part2.js'

export interface Snippet {
  path: string
  content: string
}

/** [symbolType, symbolNameQualified, docComment?] */
export type ExpectedSymbol = [string, string, string?]

export const SNIPPETS = { ...SNIPPETS_PART1, ...SNIPPETS_PART2 } as Record<CodeLanguage, Snippet>

export const EXPECTED: Record<CodeLanguage, ExpectedSymbol[]> = {
  typescript: [
    ['function', 'add', 'Adds numbers.'],
    ['interface', 'Shape'],
    ['type', 'Id'],
    ['enum', 'Color'],
    ['function', 'double'],
    ['class', 'Greeter'],
    ['method', 'Greeter.greet', 'Say hi.'],
    ['method', 'Greeter.area'],
    ['module', 'NS'],
    ['class', 'Abs'],
    ['export statement', ''],
  ],
  tsx: [
    ['function', 'App'],
    ['function', 'Button'],
  ],
  javascript: [
    ['function', 'add', 'Adds.'],
    ['class', 'Greeter'],
    ['method', 'Greeter.greet'],
    ['function', 'mul'],
    ['function', 'gen'],
  ],
  python: [
    ['function', 'add', 'Add two numbers.'],
    ['class', 'Greeter', 'A greeter.'],
    ['method', 'Greeter.greet', 'Say hi.'],
    ['method', 'Greeter.later'],
    ['variable', 'X'],
  ],
  ruby: [
    ['module', 'Util'],
    ['class', 'Util.Greeter'],
    ['method', 'Util.Greeter.greet', 'Say hi.'],
    ['function', 'top'],
  ],
  go: [
    ['function', 'Add', 'Add adds.'],
    ['struct', 'Point'],
    ['interface', 'Shape'],
    ['type', 'ID'],
    ['method', 'Point.Move'],
  ],
  rust: [
    ['struct', 'Point', 'A point.'],
    ['enum', 'Color'],
    ['trait', 'Shape'],
    ['impl', 'Point'],
    ['method', 'Point.area', 'Area.'],
    ['function', 'add'],
    ['module', 'inner'],
  ],
  java: [
    ['class', 'Greeter', 'Greeter.'],
    ['method', 'Greeter.greet', 'Greets.'],
    ['interface', 'Shape'],
    ['enum', 'Color'],
  ],
  csharp: [
    ['module', 'App.Core'],
    ['class', 'App.Core.Greeter'],
    ['method', 'App.Core.Greeter.Greet'],
    ['interface', 'App.Core.IShape'],
    ['struct', 'App.Core.Pt'],
    ['enum', 'App.Core.Color'],
  ],
  cpp: [
    ['module', 'geo'],
    ['class', 'geo.Point', 'A point.'],
    ['method', 'geo.Point.move'],
    ['struct', 'geo.Pt'],
    ['function', 'geo.add'],
    ['method', 'geo.Point2.shift'],
    ['function', 'maxOf'],
    ['enum', 'Color'],
  ],
  c: [
    ['function', 'add', 'Adds.'],
    ['struct', 'point'],
    ['type', 'pt_t'],
    ['enum', 'color'],
    ['function', 'name'],
  ],
  php: [
    ['class', 'Greeter', 'Greeter.'],
    ['method', 'Greeter.greet', 'Greets.'],
    ['interface', 'Shape'],
    ['trait', 'Loud'],
    ['function', 'add'],
    ['enum', 'Suit'],
  ],
  swift: [
    ['class', 'Greeter', 'Greeter.'],
    ['method', 'Greeter.greet', 'Greets.'],
    ['struct', 'Point'],
    ['interface', 'Shape'],
    ['enum', 'Color'],
    ['extension', 'Point'],
    ['function', 'add'],
  ],
  kotlin: [
    ['class', 'Greeter', 'Greeter.'],
    ['method', 'Greeter.greet', 'Greets.'],
    ['class', 'Singleton'],
    ['interface', 'Shape'],
    ['enum', 'Color'],
    ['function', 'add'],
  ],
  scala: [
    ['class', 'Greeter', 'Greeter.'],
    ['method', 'Greeter.greet', 'Greets.'],
    ['class', 'Main'],
    ['trait', 'Shape'],
    ['function', 'add'],
  ],
  lua: [
    ['function', 'add', 'Adds.'],
    ['function', 'M.greet'],
    ['method', 'Greeter.say'],
    ['function', 'mul'],
    ['function', 'M.div'],
  ],
  elixir: [
    ['module', 'Greeter', 'Greets.'],
    ['function', 'Greeter.greet', 'Says hi.'],
    ['function', 'Greeter.secret'],
    ['macro', 'Greeter.m'],
    ['interface', 'Shape'],
  ],
  elm: [
    ['function', 'add', 'Adds numbers.'],
    ['type', 'Color'],
    ['type', 'Point'],
    ['function', 'main'],
  ],
  ocaml: [
    ['function', 'add', 'Adds.'],
    ['function', 'fact'],
    ['type', 'color'],
    ['module', 'Geo'],
    ['function', 'Geo.area', 'Area of a square.'],
    ['interface', 'SHAPE'],
    ['class', 'greeter'],
  ],
  dart: [
    ['class', 'Greeter', 'Greeter.'],
    ['method', 'Greeter.greet', 'Greets.'],
    ['function', 'add'],
    ['enum', 'Color'],
    ['trait', 'Loud'],
  ],
  zig: [
    ['function', 'add', 'Adds.'],
    ['struct', 'Point'],
    ['method', 'Point.move'],
    ['enum', 'Color'],
  ],
  solidity: [
    ['contract', 'Token', '@title Token'],
    ['function', 'Token.send', '@notice Sends.'],
    ['interface', 'IToken'],
    ['contract', 'Math'],
  ],
  bash: [
    ['function', 'greet', 'Greets.'],
    ['function', 'build'],
  ],
  css: [
    ['rule', '.btn, .button', 'Buttons'],
    ['rule', '#main > p'],
    ['media', '@media (max-width: 600px)'],
    ['keyframes', 'spin'],
  ],
  html: [
    ['element', 'html'],
    ['element', 'html.head'],
    ['element', 'html.body'],
    ['element', 'html.body.div#app'],
  ],
  vue: [
    ['element', 'template'],
    ['element', 'script'],
    ['element', 'style'],
    ['function', 'add'],
  ],
  json: [
    ['key', 'name'],
    ['key', 'version'],
    ['key', 'scripts'],
    ['key', 'scripts.build'],
  ],
  yaml: [
    ['key', 'name', 'config'],
    ['key', 'server'],
    ['key', 'server.port'],
    ['key', 'items'],
  ],
  toml: [
    ['key', 'title'],
    ['table', 'package'],
    ['key', 'package.name'],
    ['table', 'dependencies'],
    ['table', 'bin'],
  ],
}
