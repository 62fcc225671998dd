// The GFM plugin ships no types; these are the two rules this project uses.
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown'
  export const tables: TurndownService.Plugin
  export const strikethrough: TurndownService.Plugin
  export const gfm: TurndownService.Plugin
}
