import type { ChatAdapter, Clock } from '../../ports/index.js';
import type { SubscriptionRepository } from '../../subscriptions/index.js';
import type { DeliveredLedger } from '../delivered-ledger.js';
import type { DeliveryRecorder } from '../delivery-log.js';
import type { Outbox, OutboxEntry } from '../outbox.js';
import { ThreadDelivery } from '../threads.js';
import type { DispatchEvent } from './delivery-attempt.js';
import { DeliveryAttempts } from './delivery-attempt.js';
import { Pacer } from './pacer.js';
import { ReadyDestinations } from './ready-destinations.js';

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
  /** Where settled attempts are recorded for `/directory why` (see DeliveryAttempts). */
  log?: DeliveryRecorder;
  onEvent?: (event: DispatchEvent) => void;
}

/**
 * Drains the outbox: one message at a time per destination (order kept; edits after new ones), many
 * destinations in parallel, paced to each platform's limits before it answers 429. A slow or failing
 * destination holds only its own slot, a slow platform only its own; outcomes are values.
 */
export class Dispatcher {
  readonly #options: Required<Omit<DispatcherOptions, 'onEvent' | 'log'>> &
    Pick<DispatcherOptions, 'onEvent' | 'log'>;
  readonly #inFlight = new Set<string>();
  readonly #inFlightPerPlatform = new Map<string, number>();
  readonly #pacer = new Pacer();
  readonly #attempts: DeliveryAttempts;
  readonly #ready = new ReadyDestinations();
  /** Destinations whose queue changed since the dispatcher last looked. */
  readonly #changes: { take(): string[] };
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
    const queued = options.outbox.heads().map((head) => head.destinationKey);
    this.#changes = options.outbox.changes.watch(queued);
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

  /**
   * Starts what may go now, in turn order, up to each platform's slots. Only destinations whose
   * queue changed are looked at again, so each delivery costs O(log n) in the n queued
   * destinations (see ReadyDestinations), never a pass over all of them.
   */
  #pump(): void {
    if (!this.#running) return;
    const { outbox, clock, concurrency, adapters } = this.#options;
    const now = clock.now();
    for (const key of this.#changes.take())
      if (!this.#inFlight.has(key)) this.#ready.update(key, outbox.head(key), now);
    this.#ready.advance(now);
    let nextWake = Number.POSITIVE_INFINITY;
    for (const platform of this.#ready.platforms()) {
      const adapter = adapters.get(platform);
      if (!adapter) continue;
      while ((this.#inFlightPerPlatform.get(platform) ?? 0) < concurrency) {
        const entry = this.#ready.next(platform);
        if (!entry) break;
        const waits = this.#pacer.waits(entry, adapter, now);
        if (waits.platform > 0) {
          // Every destination of the platform waits as long: none needs a look before then.
          nextWake = Math.min(nextWake, waits.platform);
          break;
        }
        if (waits.destination > 0 || waits.workspace > 0) this.#ready.hold(entry, waits, now);
        else this.#start(adapter, entry, now);
      }
    }
    nextWake = Math.min(nextWake, this.#ready.nextDue() - now);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (Number.isFinite(nextWake)) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#pump();
      }, nextWake);
    }
  }

  #start(adapter: ChatAdapter, entry: OutboxEntry, now: number): void {
    const { outbox, clock } = this.#options;
    const { platform } = entry.destination;
    const answered = this.#pacer.take(entry, adapter, now);
    this.#ready.started(entry.destinationKey);
    this.#inFlight.add(entry.destinationKey);
    this.#inFlightPerPlatform.set(platform, (this.#inFlightPerPlatform.get(platform) ?? 0) + 1);
    void this.#deliver(adapter, entry, answered).finally(() => {
      this.#inFlight.delete(entry.destinationKey);
      this.#inFlightPerPlatform.set(platform, (this.#inFlightPerPlatform.get(platform) ?? 1) - 1);
      this.#ready.finished(entry.destinationKey, outbox.head(entry.destinationKey), clock.now());
      if (this.#inFlight.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
      this.wake();
    });
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
