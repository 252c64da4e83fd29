/**
 * Waits for `work`, but never longer than `ms`. What happens then is the caller's choice:
 * `onTimeout` gives the value to settle with (or throws the error to reject with); without it
 * the answer rejects with "no answer within N ms". A rejection of `work` before the deadline
 * passes through as it is, and one after the deadline is absorbed (never unhandled).
 *
 * The timer is cleared as soon as either side wins, so a quick answer leaves no handle behind.
 * It is deliberately not unref'd: when the work hangs, the deadline firing is what moves the
 * program on, and an unref'd timer would let Node exit mid-await instead.
 */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T>;
export function withDeadline<T, F>(work: Promise<T>, ms: number, onTimeout: () => F): Promise<T | F>;
export async function withDeadline<T, F>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => F = () => {
    throw new Error(`no answer within ${Math.round(ms)} ms`);
  },
): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<F>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
