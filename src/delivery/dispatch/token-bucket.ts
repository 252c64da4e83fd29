import type { RateLimit } from '../../ports/index.js';

/** A token bucket: `burst` tokens at most, refilled at `ratePerSecond`. */
export class TokenBucket {
  readonly #limit: RateLimit;
  #tokens: number;
  #updatedAt: number;

  constructor(limit: RateLimit, now: number) {
    this.#limit = limit;
    this.#tokens = limit.burst;
    this.#updatedAt = now;
  }

  /** Milliseconds until a token is available; 0 when one is available now. */
  waitMs(now: number): number {
    this.#refill(now);
    // Refills add up in floating point; a hair short of a whole token is a whole token.
    if (this.#tokens >= 1 - 1e-9) return 0;
    return Math.ceil(((1 - this.#tokens) / this.#limit.ratePerSecond) * 1000);
  }

  /** Takes a token; callers check `waitMs` first. */
  take(now: number): undefined {
    this.#refill(now);
    this.#tokens -= 1;
  }

  /** Empties the bucket so the next token is available exactly `ms` from now (the platform said Retry-After). */
  drainFor(ms: number, now: number): void {
    this.#refill(now);
    this.#tokens = Math.min(this.#tokens, 1 - (ms / 1000) * this.#limit.ratePerSecond);
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#updatedAt) / 1000;
    this.#tokens = Math.min(this.#limit.burst, this.#tokens + elapsed * this.#limit.ratePerSecond);
    this.#updatedAt = now;
  }
}
