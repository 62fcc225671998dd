/** Messages between the main thread and the native model's thread (native-worker.ts). */
export type NativeThreadRequest = { kind: 'embed'; id: number; texts: readonly string[] } | { kind: 'release' }

export type NativeThreadReply = { kind: 'ready' } | { kind: 'failed'; error: string } | { kind: 'vectors'; id: number; vectors?: Float32Array; error?: string } | { kind: 'released'; error?: string }
