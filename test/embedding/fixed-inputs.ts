export const sentence = 'The worker claims a job, runs the handler and reports back to the queue. '

/** A fixed set: short, long (past the model's 128 tokens), Unicode, NBSP, code, whitespace. */
export const FIXED_INPUTS = [
  'hello world',
  'how do we rotate the TLS certificates on the staging cluster',
  sentence.repeat(3),
  sentence.repeat(40),
  `Notes\u00a0with\u00a0no-break spaces, café, naïve, ﬁve ligatures, ½ cup, 東京 and emoji 🎉 ${sentence.repeat(12)}`,
  'export function backoffDelay(attempt: number, baseMs: number): number {\n  return Math.min(30_000, baseMs * 2 ** attempt)\n}\n',
  'x'.repeat(3_000),
  '   ',
]

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return dot / Math.sqrt(na * nb)
}
