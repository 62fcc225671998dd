/**
 * Counts for `scripts/test-profile.mjs`: when the suite runs under it, its hook sets up a global
 * counter; otherwise these do nothing.
 */
interface ProfileCounter {
  add(key: string, amount?: number): void
}

function counter(): ProfileCounter | undefined {
  return (globalThis as { brainTestProfile?: ProfileCounter }).brainTestProfile
}

/** Runs `work`, counting it as one `key` event (and its duration, for boots and databases). */
export async function profiled<T>(key: 'pgliteBoots' | 'pgDatabases', work: () => Promise<T>): Promise<T> {
  const profile = counter()
  if (!profile) return work()
  const started = Date.now()
  try {
    return await work()
  } finally {
    profile.add(key)
    if (key === 'pgliteBoots') profile.add('pgliteMs', Date.now() - started)
    if (key === 'pgDatabases') profile.add('pgDatabaseMs', Date.now() - started)
  }
}
