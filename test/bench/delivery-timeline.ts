import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import type Keyv from 'keyv';
import type { ChatAdapter } from '../../src/ports/index.js';
import { percentile, round } from './support.js';

/** One post as the benchmark saw it, all times from `performance.now()`. */
interface Send {
  destinationKey: string;
  /** The outbox handed it to the adapter. */
  startedAt: number;
  /** The adapter returned the platform's answer. */
  answeredAt: number;
  /** The outbox's `delivered` event: the ledger and the outbox queue written. */
  recordedAt?: number;
  /** The channel's stated bucket was empty: nothing more for it until then. */
  blockedUntil?: number;
}

export interface Spread {
  p50: number;
  mean: number;
  p95: number;
  max: number;
}

/**
 * Where a paced platform's burst spent its time (the JSON's `timing`). Every figure in ms.
 * `slotFree`, for every post after the first window, follows the window limiter's rule
 * (src/delivery/dispatch/window-limiter.ts): the k-th post may go once `k − limit` of the posts before it
 * were answered a window ago. From then to the moment it went is the lag, split into
 * `channelWait` (every channel with posts left was waiting for its own bucket or for its previous
 * post to be recorded: nothing could have gone) and `slack` (something could have gone and did
 * not: timers, the event loop, the store, the dispatcher's concurrency). Each slot waits its lag
 * once per window, so the mean lag is what every window loses besides the round trip. The first
 * window, which only waits for the dispatcher to start, is `firstWindow`.
 */
export interface DeliveryTiming {
  posts: number;
  eventLoopDelayMs: { mean: number; p50: number; p99: number; max: number };
  /** Per post: from when its channel could take it (predecessor recorded) to the send; then the call; then the writes. */
  perPost: { pacerWait: Spread; adapterCall: Spread; record: Spread };
  /** Store writes made while the burst drained, by what they wrote (all platforms). */
  storeWrites: Record<string, { count: number; mean: number; p95: number }>;
  slotFree: { lag: Spread; channelWait: Spread; slack: Spread };
  /** From the dispatcher's start: the first post sent, its answer, and the `limit`-th post sent (the first window full). */
  firstWindow: { firstSentMs: number; firstAnsweredMs: number; fullMs: number };
}

/**
 * Records a paced platform's posts (send, answer, recording, stated bucket), the store's writes
 * and the event-loop delay while a burst drains, and explains the time from them (`summarise`).
 */
export class DeliveryTimeline {
  readonly #sends: Send[] = [];
  readonly #byKey = new Map<string, Send>();
  readonly #writes = new Map<string, number[]>();
  #loop: IntervalHistogram | undefined;
  #startedAt = 0;

  /** Wraps `adapter.deliver` so each post's send, answer and stated bucket are noted. */
  watch(adapter: ChatAdapter): ChatAdapter {
    const deliver = adapter.deliver.bind(adapter);
    adapter.deliver = async (destination, message, options) => {
      const send: Send = {
        destinationKey: `${adapter.platform}:${destination.channelId}`,
        startedAt: performance.now(),
        answeredAt: Number.NaN,
      };
      this.#sends.push(send);
      this.#byKey.set(options.idempotencyKey, send);
      const outcome = await deliver(destination, message, options);
      send.answeredAt = performance.now();
      if (outcome.status === 'delivered' && outcome.bucket?.remaining === 0) {
        send.blockedUntil = send.answeredAt + outcome.bucket.resetAfterMs;
      }
      return outcome;
    };
    return adapter;
  }

  /** Times every `set` and `delete` on the store, grouped by the kind of key. */
  watchStore(keyv: Keyv): void {
    for (const method of ['set', 'delete'] as const) {
      const original = keyv[method].bind(keyv) as (...args: unknown[]) => Promise<unknown>;
      (keyv as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await original(...args);
        } finally {
          if (this.#startedAt > 0) {
            const kind = `${method} ${kindOfKey(String(args[0]))}`;
            const list = this.#writes.get(kind) ?? [];
            list.push(performance.now() - started);
            this.#writes.set(kind, list);
          }
        }
      };
    }
  }

  /** The outbox recorded the post with this idempotency key as delivered. */
  recorded(idempotencyKey: string): void {
    const send = this.#byKey.get(idempotencyKey);
    if (send) send.recordedAt = performance.now();
  }

  /** The dispatcher starts draining: sends before this are not counted. */
  start(): void {
    this.#startedAt = performance.now();
    this.#loop = monitorEventLoopDelay({ resolution: 1 });
    this.#loop.enable();
  }

  stop(): void {
    this.#loop?.disable();
  }

  /** Round trips of the posts since `start`, for the safe-window-pace figure. */
  roundTrips(): number[] {
    return this.#sends
      .filter((s) => s.startedAt >= this.#startedAt && Number.isFinite(s.answeredAt))
      .map((s) => s.answeredAt - s.startedAt);
  }

  summarise(window: { limit: number; windowMs: number }): DeliveryTiming {
    const sends = this.#sends
      .filter((s) => s.startedAt >= this.#startedAt && Number.isFinite(s.answeredAt))
      .sort((a, b) => a.startedAt - b.startedAt);
    const loop = this.#loop;
    const ms = (ns: number) => round(ns / 1e6, 2);
    const storeWrites: DeliveryTiming['storeWrites'] = {};
    for (const [kind, list] of this.#writes) {
      storeWrites[kind] = {
        count: list.length,
        mean: round(mean(list), 2),
        p95: round(percentile(list, 95), 2),
      };
    }
    return {
      posts: sends.length,
      eventLoopDelayMs: loop
        ? {
            mean: ms(loop.mean),
            p50: ms(loop.percentile(50)),
            p99: ms(loop.percentile(99)),
            max: ms(loop.max),
          }
        : { mean: 0, p50: 0, p99: 0, max: 0 },
      perPost: perPost(sends, this.#startedAt),
      storeWrites,
      slotFree: slotFree(sends, window, this.#startedAt),
      firstWindow: {
        firstSentMs: round((sends[0]?.startedAt ?? Number.NaN) - this.#startedAt, 1),
        firstAnsweredMs: round((sends[0]?.answeredAt ?? Number.NaN) - this.#startedAt, 1),
        fullMs: round((sends[window.limit - 1]?.startedAt ?? Number.NaN) - this.#startedAt, 1),
      },
    };
  }
}

function kindOfKey(key: string): string {
  if (key.includes(':sent:')) return 'ledger';
  if (key.includes(':outbox:queue:')) return 'outbox queue';
  if (key.includes(':outbox:destinations')) return 'outbox index';
  return 'other';
}

function perPost(sends: readonly Send[], startedAt: number): DeliveryTiming['perPost'] {
  const previous = new Map<string, Send>();
  const pacerWait: number[] = [];
  const record: number[] = [];
  for (const send of sends) {
    const before = previous.get(send.destinationKey);
    pacerWait.push(send.startedAt - (before?.recordedAt ?? startedAt));
    if (send.recordedAt !== undefined) record.push(send.recordedAt - send.answeredAt);
    previous.set(send.destinationKey, send);
  }
  return {
    pacerWait: spread(pacerWait),
    adapterCall: spread(sends.map((s) => s.answeredAt - s.startedAt)),
    record: spread(record),
  };
}

/** See `DeliveryTiming.slotFree`. Posts must be sorted by `startedAt`. */
function slotFree(
  sends: readonly Send[],
  window: { limit: number; windowMs: number },
  startedAt: number,
): DeliveryTiming['slotFree'] {
  const posts = new Map<string, number>();
  for (const send of sends) posts.set(send.destinationKey, (posts.get(send.destinationKey) ?? 0) + 1);
  /** Per channel with posts left: when it could send next, as far as it alone is concerned. */
  const readyAt = new Map<string, number>();
  for (const key of posts.keys()) readyAt.set(key, startedAt);
  const released: number[] = [];
  const lag: number[] = [];
  const channelWait: number[] = [];
  const slack: number[] = [];
  sends.forEach((send, k) => {
    if (k >= window.limit) {
      const free = released[k - window.limit] as number;
      const ready = Math.min(...readyAt.values());
      lag.push(Math.max(0, send.startedAt - free));
      channelWait.push(Math.max(0, Math.min(ready, send.startedAt) - free));
      slack.push(Math.max(0, send.startedAt - Math.max(free, ready)));
    }
    insertSorted(released, send.answeredAt + window.windowMs);
    const left = (posts.get(send.destinationKey) ?? 1) - 1;
    posts.set(send.destinationKey, left);
    if (left === 0) readyAt.delete(send.destinationKey);
    else {
      const recorded = send.recordedAt ?? send.answeredAt;
      readyAt.set(send.destinationKey, Math.max(recorded, send.blockedUntil ?? 0));
    }
  });
  return { lag: spread(lag), channelWait: spread(channelWait), slack: spread(slack) };
}

function insertSorted(list: number[], value: number): void {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle] as number) <= value) low = middle + 1;
    else high = middle;
  }
  list.splice(low, 0, value);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { p50: 0, mean: 0, p95: 0, max: 0 };
  return {
    p50: round(percentile(values, 50), 2),
    mean: round(mean(values), 2),
    p95: round(percentile(values, 95), 2),
    max: round(Math.max(...values), 2),
  };
}
