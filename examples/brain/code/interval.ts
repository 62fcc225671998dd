/** Review scheduling for spaced repetition: the next interval after a recall attempt. */
export interface ReviewState {
  intervalDays: number
  ease: number
}

/** Grows the interval on success and resets it on failure (SM-2 style). */
export function nextInterval(state: ReviewState, recalled: boolean): ReviewState {
  if (!recalled) return { intervalDays: 1, ease: Math.max(1.3, state.ease - 0.2) }
  const intervalDays = state.intervalDays < 1 ? 1 : Math.round(state.intervalDays * state.ease)
  return { intervalDays, ease: state.ease + 0.1 }
}

export function isDue(lastReview: Date, state: ReviewState, now: Date = new Date()): boolean {
  const due = lastReview.getTime() + state.intervalDays * 86_400_000
  return now.getTime() >= due
}
