import type Keyv from 'keyv';
import type { Destination } from '../ports/chat-adapter.js';
import type { Message } from '../ports/message.js';
import { type DirectoryKeys, directoryKeys } from '../store/directory-keys.js';
import type { PostedReference } from './dedupe.js';
import type { EntryThread } from './thread-settings.js';

export interface OutboxEntry {
  destination: Destination;
  /** `${platform}:${channelId}`. */
  destinationKey: string;
  itemKey: string;
  message: Message;
  subscriptionIds: string[];
  enqueuedAt: number;
  attempts: number;
  /** Epoch ms before which the entry is not retried. */
  notBefore: number;
  /**
   * The platform confirmed the post but recording that failed; only the recording is
   * retried, never the post.
   */
  posted?: boolean;
  /** Where the platform put it, once `posted`; recorded with the delivery (see DeliveredLedger). */
  reference?: PostedReference;
  /** A reply: the parent it goes under, looked up when it is delivered (see thread-delivery.ts). */
  thread?: EntryThread;
  /** Loaded from the store by a new poller: check the delivered ledger before posting. */
  recovered?: boolean;
}

/**
 * The durable queue of messages waiting for their platform, one FIFO per destination.
 * Only the instance holding the poller lease writes it; it keeps a mirror in memory and
 * writes each destination's queue through to the store before a change counts, so a
 * SIGKILL at any moment loses nothing that was acknowledged as queued.
 */
export class Outbox {
  readonly #keyv: Keyv;
  readonly #keys: DirectoryKeys;
  readonly #queues = new Map<string, OutboxEntry[]>();
  /** Serialises writes per destination so two changes never race on one document. */
  readonly #writes = new Map<string, Promise<void>>();
  #indexWrite: Promise<void> = Promise.resolve();

  /** `directoryId`: the directory whose items this outbox holds (see directory-keys.ts). */
  constructor(options: { keyv: Keyv; directoryId: string }) {
    this.#keyv = options.keyv;
    this.#keys = directoryKeys(options.directoryId);
  }

  /** Loads every pending entry from the store (on becoming the poller). */
  async load(): Promise<number> {
    this.#queues.clear();
    const destinations = (await this.#keyv.get<string[]>(this.#keys.outboxIndex)) ?? [];
    const queues = await this.#keyv.getMany<OutboxEntry[]>(destinations.map(this.#keys.outboxQueue));
    let count = 0;
    destinations.forEach((destination, index) => {
      const entries = queues[index];
      if (entries && entries.length > 0) {
        // The previous poller may have posted an entry and died before removing it.
        for (const entry of entries) entry.recovered = true;
        this.#queues.set(destination, entries);
        count += entries.length;
      }
    });
    return count;
  }

  has(destinationKey: string, itemKey: string): boolean {
    return this.#queues.get(destinationKey)?.some((e) => e.itemKey === itemKey) ?? false;
  }

  /** Appends entries and resolves once they are durable. Entries already queued are ignored. */
  async enqueue(entries: readonly OutboxEntry[]): Promise<number> {
    const byDestination = new Map<string, OutboxEntry[]>();
    for (const entry of entries) {
      if (this.has(entry.destinationKey, entry.itemKey)) continue;
      const list = byDestination.get(entry.destinationKey) ?? [];
      if (list.some((e) => e.itemKey === entry.itemKey)) continue;
      list.push(entry);
      byDestination.set(entry.destinationKey, list);
    }
    let added = 0;
    const newDestinations: string[] = [];
    for (const [destination, list] of byDestination) {
      const queue = this.#queues.get(destination);
      if (queue) queue.push(...list);
      else {
        this.#queues.set(destination, [...list]);
        newDestinations.push(destination);
      }
      added += list.length;
    }
    // The index first: a queue document the index does not name would never be reloaded.
    if (newDestinations.length > 0) await this.#persistIndex();
    await Promise.all([...byDestination.keys()].map((d) => this.#persistQueue(d)));
    return added;
  }

  /** Destinations with entries, each with its head entry. */
  heads(): OutboxEntry[] {
    const heads: OutboxEntry[] = [];
    for (const queue of this.#queues.values()) if (queue[0]) heads.push(queue[0]);
    return heads;
  }

  size(): number {
    let total = 0;
    for (const queue of this.#queues.values()) total += queue.length;
    return total;
  }

  depth(destinationKey: string): number {
    return this.#queues.get(destinationKey)?.length ?? 0;
  }

  /** Removes a delivered, dropped or abandoned entry. */
  async remove(entry: OutboxEntry): Promise<void> {
    const queue = this.#queues.get(entry.destinationKey);
    if (!queue) return;
    const index = queue.findIndex((e) => e.itemKey === entry.itemKey);
    if (index >= 0) queue.splice(index, 1);
    await this.#persistQueue(entry.destinationKey);
  }

  /** Records when to try again; `countAttempt` false for rate limits, which are not the message's fault. */
  async reschedule(entry: OutboxEntry, notBefore: number, countAttempt = true): Promise<void> {
    const current = this.#queues.get(entry.destinationKey)?.find((e) => e.itemKey === entry.itemKey);
    if (!current) return;
    if (countAttempt) current.attempts += 1;
    current.notBefore = notBefore;
    await this.#persistQueue(entry.destinationKey);
  }

  /** Drops everything queued for a destination that failed permanently; returns what was dropped. */
  async dropDestination(destinationKey: string): Promise<OutboxEntry[]> {
    const dropped = this.#queues.get(destinationKey) ?? [];
    this.#queues.set(destinationKey, []);
    await this.#persistQueue(destinationKey);
    return dropped;
  }

  #persistQueue(destination: string): Promise<void> {
    const previous = this.#writes.get(destination) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        const queue = this.#queues.get(destination) ?? [];
        if (queue.length === 0) {
          // Forget it synchronously, before any await: an enqueue that arrives meanwhile
          // starts a fresh queue (and index entry) instead of pushing into a dead one.
          this.#queues.delete(destination);
          await this.#keyv.delete(this.#keys.outboxQueue(destination));
          await this.#persistIndex();
        } else {
          await this.#keyv.set(this.#keys.outboxQueue(destination), queue);
        }
      });
    this.#writes.set(destination, next);
    return next;
  }

  #persistIndex(): Promise<void> {
    this.#indexWrite = this.#indexWrite
      .catch(() => {})
      .then(async () => {
        await this.#keyv.set(this.#keys.outboxIndex, [...this.#queues.keys()]);
      });
    return this.#indexWrite;
  }
}
