/**
 * The embedding worker threads are unref'd while idle, so that they never hold a finished
 * process open. Work that waits on them (or on the model's own threads) must then hold the
 * process itself: with nothing else pending, Node would exit with the embed still in flight.
 */
export async function keepingProcessAlive<T>(work: () => Promise<T>): Promise<T> {
  const alive = setInterval(() => undefined, 60_000)
  try {
    return await work()
  } finally {
    clearInterval(alive)
  }
}
