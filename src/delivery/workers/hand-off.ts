import type { Redis } from 'ioredis';
import type { Outbox, OutboxEntry } from '../outbox.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DrainJobs, openRedis, type WorkerNames } from './drain-jobs.js';

/** How many handed-over keys the poller remembers as "queued" for routing (see `queued`). */
const REMEMBERED = 100_000;
/** How often drain jobs are re-added for every destination with a FIFO (a worker lost between two steps). */
const SWEEP_EVERY_MS = 15_000;

export type HandOffEvent =
  | { type: 'handed-over'; entries: number; destinations: number }
  | { type: 'hand-off-failed'; error: unknown };

/**
 * The poller's side of the delivery engine (ADR 005): where the in-process dispatcher would send,
 * this moves what routing queued in the durable outbox into the workers' FIFOs and adds each
 * destination's drain job. Idempotent by entry (an item already in a FIFO is not queued again),
 * and an entry leaves the outbox only after the FIFO has it, so a crash in between hands it over
 * again, harmlessly. The same pass hands over what an earlier version left in the outbox at
 * start (the upgrade), once. Wears the dispatcher's face (`start`, `wake`, `stop`, `drained`).
 */
export class HandOff {
  readonly #outbox: Outbox;
  readonly #redis: Redis;
  readonly #queue: DeliveryQueue;
  readonly #drains: DrainJobs;
  readonly #onEvent: ((event: HandOffEvent) => void) | undefined;
  /** `${destination}|${item}` handed over lately: routing counts them as queued. */
  readonly #handed = new Set<string>();
  #running = false;
  #pass: Promise<void> | undefined;
  #again = false;
  #sweep: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;

  constructor(options: {
    outbox: Outbox;
    redisUrl: string;
    names: WorkerNames;
    /** How long the workers' dead deliveries are kept (DEDUPE_TTL_DAYS); `now` ages them. */
    deadRetentionMs?: number;
    now?: () => number;
    onEvent?: (event: HandOffEvent) => void;
  }) {
    this.#outbox = options.outbox;
    this.#redis = openRedis(options.redisUrl);
    this.#queue = new DeliveryQueue(this.#redis, options.names.queuePrefix, {
      ...(options.deadRetentionMs === undefined ? {} : { deadRetentionMs: options.deadRetentionMs }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    this.#drains = new DrainJobs(this.#redis, options.names);
    this.#onEvent = options.onEvent;
    // Routing's "already queued" covers what the workers have lately been given.
    this.#outbox.handedOver = (destination, item) => this.queued(destination, item);
  }

  /** The workers' FIFOs (sizes and dead deliveries, for status and the CLI). */
  get queue(): DeliveryQueue {
    return this.#queue;
  }

  get drains(): DrainJobs {
    return this.#drains;
  }

  /** Whether an item was handed over lately (routing's "already queued"; the FIFO dedupes anyway). */
  queued(destinationKey: string, itemKey: string): boolean {
    return this.#handed.has(`${destinationKey}|${itemKey}`);
  }

  /**
   * Queues entries for the workers straight away, from any instance: a panel change announced on
   * a web dyno that does not poll. The FIFOs take appends from every process (each is one Lua
   * script, idempotent by item); the outbox belongs to the poller alone, so this skips it.
   */
  async queueNow(entries: readonly OutboxEntry[]): Promise<void> {
    const byDestination = new Map<string, OutboxEntry[]>();
    for (const entry of entries)
      byDestination.set(entry.destinationKey, [...(byDestination.get(entry.destinationKey) ?? []), entry]);
    for (const [destination, list] of byDestination) await this.#queue.append(destination, list);
    await this.#drains.add(byDestination.keys());
  }

  start(): void {
    this.#running = true;
    this.#sweep = setInterval(() => void this.#sweepDrains(), SWEEP_EVERY_MS);
    this.#sweep.unref();
    void this.#sweepDrains();
    this.wake();
  }

  /** Hands over whatever the outbox holds now (after an enqueue). */
  wake(): void {
    if (!this.#running) return;
    if (this.#pass) {
      this.#again = true;
      return;
    }
    this.#pass = this.#run().finally(() => {
      this.#pass = undefined;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  /** Stops handing over (this instance stopped polling); the connection stays for `queue` readers. */
  async stop(): Promise<void> {
    this.#running = false;
    clearInterval(this.#sweep);
    clearTimeout(this.#retry);
    await this.#pass;
  }

  /** Closes the connection, once the engine stops for good. */
  async close(): Promise<void> {
    await this.stop();
    await this.#drains.close();
    this.#redis.disconnect();
  }

  /** Resolves when the outbox and every worker FIFO are empty (tests and benchmarks). */
  async drained(pollMs = 20): Promise<void> {
    while (this.#outbox.size() > 0 || this.#pass !== undefined || (await this.#queue.size()) > 0)
      await new Promise((resolve) => setTimeout(resolve, pollMs));
  }

  async #run(): Promise<void> {
    const byDestination = new Map<string, OutboxEntry[]>();
    for (const entry of this.#outbox.entries()) {
      const list = byDestination.get(entry.destinationKey) ?? [];
      list.push(entry);
      byDestination.set(entry.destinationKey, list);
    }
    if (byDestination.size === 0) return;
    try {
      let count = 0;
      await Promise.all(
        [...byDestination].map(async ([destination, entries]) => {
          await this.#queue.append(destination, entries);
          count += entries.length;
        }),
      );
      await this.#drains.add(byDestination.keys());
      for (const entries of byDestination.values()) for (const entry of entries) this.#remember(entry);
      // Only now out of the outbox: the FIFOs have them and their drain jobs exist.
      await Promise.all([...byDestination.values()].flat().map((entry) => this.#outbox.remove(entry)));
      this.#onEvent?.({ type: 'handed-over', entries: count, destinations: byDestination.size });
    } catch (error) {
      this.#onEvent?.({ type: 'hand-off-failed', error });
      clearTimeout(this.#retry);
      this.#retry = setTimeout(() => this.wake(), 2000);
      this.#retry.unref();
    }
  }

  #remember(entry: OutboxEntry): void {
    const key = `${entry.destinationKey}|${entry.itemKey}`;
    this.#handed.delete(key);
    this.#handed.add(key);
    if (this.#handed.size > REMEMBERED) {
      const oldest = this.#handed.values().next().value;
      if (oldest !== undefined) this.#handed.delete(oldest);
    }
  }

  async #sweepDrains(): Promise<void> {
    try {
      await this.#drains.add(await this.#queue.destinations());
    } catch (error) {
      this.#onEvent?.({ type: 'hand-off-failed', error });
    }
  }
}
