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
  /** The changeable values the message shows (engine's shownState), kept with its reference for edits. */
  shown?: string;
  /** Where the platform put it, once `posted`; recorded with the delivery (see DeliveredLedger). */
  reference?: PostedReference;
  /** A reply: the parent it goes under, looked up when it is delivered (see thread-delivery.ts). */
  thread?: EntryThread;
  /** Loaded from the store by a new poller: check the delivered ledger before posting. */
  recovered?: boolean;
  /**
   * An edit of a message already posted (see edits.ts), not a new message: `itemKey` is then
   * the item's key with EDIT_SUFFIX, so it never meets the post's own entry or ledger key.
   */
  edit?: EditTarget;
}

/** Which posted message an edit replaces, and which of its coalesced versions this is. */
export interface EditTarget {
  messageId: string;
  threadId?: string;
  /** The channel the message lives in when not the destination's: see PostedReference. */
  channelId?: string;
  /** Grows with each newer state queued; only the entry holding the latest one is ever sent. */
  revision: number;
}

/** Marks an outbox entry's item key as an edit of the item's message. */
export const EDIT_SUFFIX = '#edit';

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

  /**
   * Queues an edit durably, coalesced: a pending edit of the same message is replaced by this
   * newer state (never sent earlier than the pending one was due), so only the latest is sent.
   */
  async enqueueEdit(entry: OutboxEntry): Promise<'queued' | 'coalesced'> {
    const queue = this.#queues.get(entry.destinationKey);
    const index = queue?.findIndex((e) => e.itemKey === entry.itemKey) ?? -1;
    if (queue && index >= 0) {
      const pending = queue[index]!;
      queue[index] = { ...entry, notBefore: Math.max(entry.notBefore, pending.notBefore) };
      await this.#persistQueue(entry.destinationKey);
      return 'coalesced';
    }
    await this.enqueue([entry]);
    return 'queued';
  }

  /** The pending edit of an item's message in a destination, if one is queued. */
  pendingEdit(destinationKey: string, itemKey: string): OutboxEntry | undefined {
    return this.#queues.get(destinationKey)?.find((e) => e.itemKey === itemKey + EDIT_SUFFIX);
  }

  /**
   * Destinations with entries, each with the entry to send next: its oldest new message, or its
   * oldest edit when no new message waits, so under a 429 storm edits never starve new items.
   */
  heads(): OutboxEntry[] {
    const heads: OutboxEntry[] = [];
    for (const queue of this.#queues.values()) {
      const head = queue.find((e) => e.edit === undefined) ?? queue[0];
      if (head) heads.push(head);
    }
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
    // An edit replaced by a newer state while in flight stays: the newer one is still owed.
    const index = queue.findIndex(
      (e) => e.itemKey === entry.itemKey && e.edit?.revision === entry.edit?.revision,
    );
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
