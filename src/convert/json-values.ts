/** Reading the JSON an export is written in: its objects and strings, checked as they are used. */
import { ConvertError } from './errors.js'

export type JsonObject = Record<string, unknown>

export const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v)
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
/** The objects of a JSON array; anything else is no objects. */
export const objects = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObj) : [])

/** A file's bytes as JSON; bytes that are not JSON are `convert_corrupt`. */
export function parseJson(bytes: Uint8Array, name: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: false }).decode(bytes))
  } catch {
    throw new ConvertError('convert_corrupt', `${name}: not valid JSON`)
  }
}
