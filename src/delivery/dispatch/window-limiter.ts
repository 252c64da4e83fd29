import type { WindowLimit } from '../../ports/index.js';

/**
 * At most `limit` requests in any `windowMs` as the platform counts them, wherever its window
 * starts: a request counts from when it is sent until a window after its answer came back (the
 * platform counted it at the latest then). So a new request goes only while fewer than `limit`
 * are in flight or were answered within the last window. That holds however the requests bunch
 * up on the way, at the price of one round trip per window; a token bucket of the same rate
 * would grant its burst and its refill inside one window, twice the limit.
 */
export class WindowLimiter {
  readonly #limit: WindowLimit;
  /** When each counted request was answered; Infinity while it is in flight. */
  #answeredAt: { at: number }[] = [];
  #blockedUntil = 0;
  /** The last answer of `waitMs`, for the same `now` and no change since: the outbox asks once per channel. */
  #cached: { now: number; wait: number } | undefined;

  constructor(limit: WindowLimit) {
    this.#limit = limit;
  }

  /** Milliseconds until a request may go; 0 = now. With every slot in flight, until one is answered. */
  waitMs(now: number): number {
    if (this.#cached?.now === now) return this.#cached.wait;
    const wait = this.#compute(now);
    this.#cached = { now, wait };
    return wait;
  }

  #compute(now: number): number {
    const blocked = Math.max(0, Math.ceil(this.#blockedUntil - now));
    this.#answeredAt = this.#answeredAt.filter((slot) => slot.at + this.#limit.windowMs > now);
    if (this.#answeredAt.length < this.#limit.limit) return blocked;
    const earliest = Math.min(...this.#answeredAt.map((slot) => slot.at));
    const free = Number.isFinite(earliest)
      ? Math.ceil(earliest + this.#limit.windowMs - now)
      : this.#limit.windowMs;
    return Math.max(blocked, free, 1);
  }

  /** Counts a request about to go; call the returned function when its answer came back. */
  take(_now: number): (answeredAt: number) => void {
    const slot = { at: Number.POSITIVE_INFINITY };
    this.#answeredAt.push(slot);
    this.#cached = undefined;
    return (answeredAt) => {
      // The first call is the answer; later ones (a `finally`) change nothing.
      if (slot.at === Number.POSITIVE_INFINITY) slot.at = answeredAt;
      this.#cached = undefined;
    };
  }

  /** Nothing goes for `ms` from now (the platform said Retry-After for all of us). */
  drainFor(ms: number, now: number): void {
    this.#blockedUntil = Math.max(this.#blockedUntil, now + ms);
    this.#cached = undefined;
  }
}
