const BASE_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 10 * 60_000;

/** Exponential backoff with full jitter, capped. */
export function backoff(attempts: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempts);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
