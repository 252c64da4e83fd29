import type { BucketState, ChatAdapter, RateLimit, WindowLimit } from '../ports/chat-adapter.js';
import { TokenBucket } from './token-bucket.js';
import { WindowLimiter } from './window-limiter.js';

interface Limiter {
  waitMs(now: number): number;
  /** May return a function to call with the moment the request's answer came back. */
  take(now: number): ((answeredAt: number) => void) | undefined;
  drainFor(ms: number, now: number): void;
}

function limiterFor(limit: RateLimit | WindowLimit, now: number): Limiter {
  return 'windowMs' in limit ? new WindowLimiter(limit) : new TokenBucket(limit, now);
}

/**
 * When the outbox may send: per destination, either the adapter's fixed pace or, when the
 * platform states its buckets, what it stated with the last answer (nothing until the reset once
 * it said none remain); and per platform, its global limit. One pacer for the whole outbox, so
 * the SDK underneath never sees a request its own limiter would have to hold back.
 */
export class Pacer {
  readonly #perDestination = new Map<string, Limiter>();
  /** Destinations whose stated bucket is empty, and when it resets. */
  readonly #resetAt = new Map<string, number>();
  readonly #perPlatform = new Map<string, Limiter>();

  /** Milliseconds until `destinationKey` may be sent to; 0 = now. */
  waitMs(destinationKey: string, adapter: ChatAdapter, now: number): number {
    let destinationWait = 0;
    const resetAt = this.#resetAt.get(destinationKey);
    if (resetAt !== undefined) {
      if (resetAt <= now) this.#resetAt.delete(destinationKey);
      else destinationWait = Math.ceil(resetAt - now);
    }
    const own = this.#destination(destinationKey, adapter, now);
    return Math.max(destinationWait, own?.waitMs(now) ?? 0, this.#platform(adapter, now).waitMs(now));
  }

  /**
   * A send is starting; callers check `waitMs` first, and call the returned function once the
   * platform answered (or the send did not happen).
   */
  take(destinationKey: string, adapter: ChatAdapter, now: number): (answeredAt: number) => void {
    this.#destination(destinationKey, adapter, now)?.take(now);
    return this.#platform(adapter, now).take(now) ?? (() => {});
  }

  /** The bucket the platform stated with its answer: when none remain, wait for the reset. */
  stated(destinationKey: string, bucket: BucketState | undefined, now: number): void {
    if (bucket === undefined) return;
    if (bucket.remaining > 0) this.#resetAt.delete(destinationKey);
    else this.#resetAt.set(destinationKey, now + bucket.resetAfterMs);
  }

  /** The platform answered "rate limited, retry in `ms`": for this destination, or all of them. */
  rateLimited(destinationKey: string, adapter: ChatAdapter, ms: number, global: boolean, now: number): void {
    // A destination's own wait is also the entry's `notBefore`; the static pace restarts after it.
    if (global) this.#platform(adapter, now).drainFor(ms, now);
    else this.#destination(destinationKey, adapter, now)?.drainFor(ms, now);
  }

  #destination(key: string, adapter: ChatAdapter, now: number): Limiter | undefined {
    const limit = adapter.pacing.perDestination;
    if (limit === undefined) return undefined;
    let limiter = this.#perDestination.get(key);
    if (!limiter) {
      limiter = limiterFor(limit, now);
      this.#perDestination.set(key, limiter);
    }
    return limiter;
  }

  #platform(adapter: ChatAdapter, now: number): Limiter {
    let limiter = this.#perPlatform.get(adapter.platform);
    if (!limiter) {
      limiter = limiterFor(adapter.pacing.global, now);
      this.#perPlatform.set(adapter.platform, limiter);
    }
    return limiter;
  }
}
