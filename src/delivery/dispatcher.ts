import type { ChatAdapter } from '../ports/chat-adapter.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveredLedger } from './dedupe.js';
import { DeliveryAttempts } from './delivery-attempt.js';
import { DeliveryTurns } from './delivery-turns.js';
import type { DispatchEvent } from './dispatch-events.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { Pacer } from './pacer.js';
import type { SubscriptionRepository } from './subscriptions.js';
import { ThreadDelivery } from './thread-delivery.js';

export type { DispatchEvent } from './dispatch-events.js';

export interface DispatcherOptions {
  outbox: Outbox;
  ledger: DeliveredLedger;
  subscriptions: SubscriptionRepository;
  adapters: ReadonlyMap<string, ChatAdapter>;
  clock: Clock;
  /**
   * Deliveries in flight at once per platform, across its destinations (one at a time per
   * destination); per platform so that a slow platform never holds another's slots.
   */
  concurrency?: number;
  /**
   * After this many failures that were not rate limits an entry is given up on (logged and
   * counted); with the backoff capped at 10 minutes that is about three hours of trying.
   */
  maxAttempts?: number;
  onEvent?: (event: DispatchEvent) => void;
}

/**
 * Drains the outbox: one message at a time per destination (order kept; edits after new ones), many
 * destinations in parallel, paced to each platform's limits before it answers 429. A slow or failing
 * destination holds only its own slot, a slow platform only its own; outcomes are values.
 */
export class Dispatcher {
  readonly #options: Required<Omit<DispatcherOptions, 'onEvent'>> & Pick<DispatcherOptions, 'onEvent'>;
  readonly #inFlight = new Set<string>();
  readonly #inFlightPerPlatform = new Map<string, number>();
  readonly #pacer = new Pacer();
  readonly #attempts: DeliveryAttempts;
  readonly #turns = new DeliveryTurns();
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #idle: (() => void)[] = [];

  constructor(options: DispatcherOptions) {
    this.#options = { concurrency: 16, maxAttempts: 20, ...options };
    this.#attempts = new DeliveryAttempts({
      ...this.#options,
      pacer: this.#pacer,
      threads: new ThreadDelivery(options),
    });
  }

  start(): void {
    this.#running = true;
    this.wake();
  }

  /** Stops starting deliveries and resolves once those in flight have finished. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    if (this.#inFlight.size > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Looks for work now (after an enqueue). */
  wake(): void {
    if (!this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pump();
  }

  /** Resolves when the outbox is empty and nothing is in flight (tests and benchmarks). */
  async drained(pollMs = 20): Promise<void> {
    while (this.#options.outbox.size() > 0 || this.#inFlight.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  #pump(): void {
    if (!this.#running) return;
    const { outbox, clock, concurrency } = this.#options;
    const now = clock.now();
    let nextWake = Number.POSITIVE_INFINITY;
    for (const entry of this.#turns.order(outbox.heads())) {
      const { platform } = entry.destination;
      if (this.#inFlight.has(entry.destinationKey)) continue;
      const adapter = this.#options.adapters.get(platform);
      if (!adapter || (this.#inFlightPerPlatform.get(platform) ?? 0) >= concurrency) continue;
      const wait = Math.max(entry.notBefore - now, this.#pacer.waitMs(entry, adapter, now));
      if (wait > 0) {
        nextWake = Math.min(nextWake, wait);
        continue;
      }
      const answered = this.#pacer.take(entry, adapter, now);
      this.#inFlight.add(entry.destinationKey);
      this.#inFlightPerPlatform.set(platform, (this.#inFlightPerPlatform.get(platform) ?? 0) + 1);
      void this.#deliver(adapter, entry, answered).finally(() => {
        this.#inFlight.delete(entry.destinationKey);
        this.#inFlightPerPlatform.set(platform, (this.#inFlightPerPlatform.get(platform) ?? 1) - 1);
        this.#turns.finished(entry.destinationKey, outbox.depth(entry.destinationKey) > 0, clock.now());
        if (this.#inFlight.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
        this.wake();
      });
    }
    if (Number.isFinite(nextWake) && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#pump();
      }, nextWake);
    }
  }

  /** `answered` is told when the platform answered, or that no request was made. */
  async #deliver(adapter: ChatAdapter, entry: OutboxEntry, answered: (at: number) => void): Promise<void> {
    const { clock } = this.#options;
    const startedAt = clock.now();
    try {
      await this.#attempts.run(adapter, entry, answered, startedAt);
    } finally {
      answered(clock.now());
    }
  }
}
