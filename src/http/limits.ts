import { TokenBucketLru } from './token-bucket.js'

/** Keys each bucket LRU keeps at most; the least recently used goes first. */
export const BUCKET_MAX_KEYS = 10_000

/**
 * MCP rate buckets. Per IP, before authentication: BRAIN_HTTP_IP_BURST requests of burst
 * (default 120). Per token, after authentication: BRAIN_HTTP_TOKEN_BURST (default 600). Both
 * refill at half their burst per second; a key idle until its bucket is full again is pruned.
 */
export function mcpBuckets(limits: { ipBurst: number; tokenBurst: number }): { ipBuckets: TokenBucketLru; tokenBuckets: TokenBucketLru } {
  return {
    ipBuckets: new TokenBucketLru({ capacity: limits.ipBurst, refillPerSecond: limits.ipBurst / 2, maxKeys: BUCKET_MAX_KEYS }),
    tokenBuckets: new TokenBucketLru({ capacity: limits.tokenBurst, refillPerSecond: limits.tokenBurst / 2, maxKeys: BUCKET_MAX_KEYS }),
  }
}
