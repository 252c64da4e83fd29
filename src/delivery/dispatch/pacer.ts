import type { BucketState, ChatAdapter, Destination, RateLimit, WindowLimit } from '../../ports/index.js';
import { TokenBucket } from './token-bucket.js';
import { WindowLimiter } from './window-limiter.js';

interface Limiter {
  waitMs(now: number): number;
  /** May return a function to call with the moment the request's answer came back. */
  take(now: number): ((answeredAt: number) => void) | undefined;
  drainFor(ms: number, now: number): void;
}

type Limit = RateLimit | WindowLimit;

function limiterFor(limit: Limit | readonly Limit[], now: number): Limiter {
  if (isLimitList(limit)) return new AllLimits(limit.map((one) => limiterFor(one, now)));
  return 'windowMs' in limit ? new WindowLimiter(limit) : new TokenBucket(limit, now);
}

function isLimitList(limit: Limit | readonly Limit[]): limit is readonly Limit[] {
  return Array.isArray(limit);
}

/**
 * Several limits that all hold (a Teams webhook: 4 a second, 60 in 30 seconds, 1,800 an hour): a
 * send waits for the slowest of them and counts against each.
 */
class AllLimits implements Limiter {
  readonly #limiters: readonly Limiter[];

  constructor(limiters: readonly Limiter[]) {
    this.#limiters = limiters;
  }

  waitMs(now: number): number {
    return Math.max(0, ...this.#limiters.map((limiter) => limiter.waitMs(now)));
  }

  take(now: number): (answeredAt: number) => void {
    const answered = this.#limiters.map((limiter) => limiter.take(now));
    return (answeredAt) => {
      for (const done of answered) done?.(answeredAt);
    };
  }

  drainFor(ms: number, now: number): void {
    for (const limiter of this.#limiters) limiter.drainFor(ms, now);
  }
}

/** What the pacer needs of a send: its destination's queue key, platform and workspace. */
export interface PacedSend {
  destinationKey: string;
  destination: Pick<Destination, 'platform' | 'workspaceId'>;
}

/** Milliseconds a send must wait for each of the limits it counts against; 0 = free now. */
export interface PaceWaits {
  destination: number;
  workspace: number;
  platform: number;
}

/**
 * When the outbox may send: per destination, either the adapter's fixed pace or, when the
 * platform states its buckets, what it stated with the last answer (nothing until the reset once
 * it said none remain); per workspace, the adapter's workspace pace, so a thousand Slack teams do
 * not share one team's limit; and per platform, its bot-wide limit. One pacer for the whole
 * outbox, so the SDK underneath never sees a request its own limiter would have to hold back.
 */
export class Pacer {
  readonly #perDestination = new Map<string, Limiter>();
  /** Destinations whose stated bucket is empty, and when it resets. */
  readonly #resetAt = new Map<string, number>();
  readonly #perWorkspace = new Map<string, Limiter>();
  readonly #perPlatform = new Map<string, Limiter>();

  /**
   * How long until `send` may go (0 = now), by whom the wait holds: the destination alone, every
   * destination of its workspace, or the whole platform; the dispatcher sets a held destination
   * aside accordingly.
   */
  waits(send: PacedSend, adapter: ChatAdapter, now: number): PaceWaits {
    let destinationWait = 0;
    const resetAt = this.#resetAt.get(send.destinationKey);
    if (resetAt !== undefined) {
      if (resetAt <= now) this.#resetAt.delete(send.destinationKey);
      else destinationWait = Math.ceil(resetAt - now);
    }
    return {
      destination: Math.max(
        destinationWait,
        this.#destination(send.destinationKey, adapter, now)?.waitMs(now) ?? 0,
      ),
      workspace: this.#workspace(send, adapter, now)?.waitMs(now) ?? 0,
      platform: this.#platform(adapter, now)?.waitMs(now) ?? 0,
    };
  }

  /**
   * A send is starting; callers check `waitMs` first, and call the returned function once the
   * platform answered (or the send did not happen).
   */
  take(send: PacedSend, adapter: ChatAdapter, now: number): (answeredAt: number) => void {
    const answered = this.#limiters(send, adapter, now).map((l) => l.take(now));
    return (answeredAt) => {
      for (const done of answered) done?.(answeredAt);
    };
  }

  /** The bucket the platform stated with its answer: when none remain, wait for the reset. */
  stated(destinationKey: string, bucket: BucketState | undefined, now: number): void {
    if (bucket === undefined) return;
    if (bucket.remaining > 0) this.#resetAt.delete(destinationKey);
    else this.#resetAt.set(destinationKey, now + bucket.resetAfterMs);
  }

  /** The platform answered "rate limited, retry in `ms`": for this destination, or the whole bot. */
  rateLimited(send: PacedSend, adapter: ChatAdapter, ms: number, global: boolean, now: number): void {
    // A destination's own wait is also the entry's `notBefore`; the static pace restarts after it.
    // A 429 not marked global holds only its destination, never its workspace: Slack does not say
    // which limit it hit, and holding the channel keeps one busy channel from stalling the rest.
    if (global) this.#platform(adapter, now)?.drainFor(ms, now);
    else this.#destination(send.destinationKey, adapter, now)?.drainFor(ms, now);
  }

  /** Every limiter the send counts against, narrowest first. */
  #limiters(send: PacedSend, adapter: ChatAdapter, now: number): Limiter[] {
    const limiters = [
      this.#destination(send.destinationKey, adapter, now),
      this.#workspace(send, adapter, now),
      this.#platform(adapter, now),
    ];
    return limiters.filter((limiter) => limiter !== undefined);
  }

  #destination(key: string, adapter: ChatAdapter, now: number): Limiter | undefined {
    return cached(this.#perDestination, key, adapter.pacing.perDestination, now);
  }

  #workspace(send: PacedSend, adapter: ChatAdapter, now: number): Limiter | undefined {
    return cached(this.#perWorkspace, workspaceKey(send), adapter.pacing.perWorkspace, now);
  }

  #platform(adapter: ChatAdapter, now: number): Limiter | undefined {
    return cached(this.#perPlatform, adapter.platform, adapter.pacing.global, now);
  }
}

/** The workspace whose limit a send counts against. */
export function workspaceKey(send: PacedSend): string {
  // A destination without a workspace id is a single-workspace install: one workspace for all.
  return `${send.destination.platform}:${send.destination.workspaceId ?? ''}`;
}

/** The limiter under `key`, made on first use; none when the adapter declares no such limit. */
function cached(
  limiters: Map<string, Limiter>,
  key: string,
  limit: Limit | readonly Limit[] | undefined,
  now: number,
): Limiter | undefined {
  if (limit === undefined) return undefined;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = limiterFor(limit, now);
    limiters.set(key, limiter);
  }
  return limiter;
}
