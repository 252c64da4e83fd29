import type Keyv from 'keyv';
import type { Destination, Message } from '../ports/index.js';
import { type DirectoryKeys, directoryKeys } from '../store/index.js';
import type { PostedReference } from './delivered-ledger.js';

/**
 * One message owed to one destination. Entries are values the outbox owns: the fields that change
 * while an entry waits (`attempts`, `notBefore`, `posted`, `reference`, `recovered`) are readonly
 * here and change only through the outbox's methods, so every change of an entry has one writer.
 */
export interface OutboxEntry {
  destination: Destination;
  /** `${platform}:${channelId}`. */
  destinationKey: string;
  itemKey: string;
  message: Message;
  subscriptionIds: string[];
  enqueuedAt: number;
  readonly attempts: number;
  /** Epoch ms before which the entry is not retried. */
  readonly notBefore: number;
  /**
   * The platform confirmed the post but recording that failed; only the recording is
   * retried, never the post.
   */
  readonly posted?: boolean;
  /** The changeable values the message shows (engine's shownState), kept with its reference for edits. */
  shown?: string;
  /** Where the platform put it, once `posted`; recorded with the delivery (see DeliveredLedger). */
  readonly reference?: PostedReference;
  /** A reply: the parent it goes under, looked up when it is delivered (see threads.ts). */
  thread?: EntryThread;
  /**
   * The item's directory record, kept only for a platform that is sent it (a generic JSON webhook:
   * `ChatAdapter.wantsRecords`); every other entry carries the composed message alone.
   */
  record?: unknown;
  /** Loaded from the store by a new poller: check the delivered ledger before posting. */
  readonly recovered?: boolean;
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
  /**
   * Delete the message instead (its item was removed upstream and the subscription says
   * `--on-removal delete`); the entry's `message` is the marked message, sent as an edit instead
   * when the platform refuses the delete.
   */
  delete?: true;
}

/** What an outbox entry carries about its thread: the parent to look up when it is delivered. */
export interface EntryThread {
  /** The parent's item key in the same destination (a post's `posts:new:<id>`). */
  parentKey: string;
  /** Slack reply_broadcast for this reply. */
  broadcast?: true;
  /** What the thread is about (the post's name), for platforms whose threads have names. */
  title?: string;
  /**
   * A digest's later part (issue 29), which never goes top-level: a digest is one message in the
   * channel. Where the thread will not take it, the parent (that one message) is replaced by this
   * message, which counts the rest and says where to see them; with no parent posted it is dropped.
   */
  parentInstead?: Message;
}

/** The entry as the outbox itself changes it (see OutboxEntry). */
type WritableEntry = { -readonly [K in keyof OutboxEntry]: OutboxEntry[K] };

/**
 * The key a platform deduplicates a post by (Discord's enforced nonce): one per destination and
 * item, so a repeated attempt of the same entry is the same post to the platform.
 */
export function idempotencyKeyOf(entry: Pick<OutboxEntry, 'destinationKey' | 'itemKey'>): string {
  return `${entry.destinationKey}|${entry.itemKey}`;
}

/** Marks an outbox entry's item key as an edit of the item's message. */
export const EDIT_SUFFIX = '#edit';

/** Queue documents per store call when an enqueue writes many (bounds one statement or MULTI). */
const SET_MANY_BATCH = 500;

/**
 * The durable queue of messages waiting for their platform, one FIFO per destination.
 * Only the instance holding the poller lease writes it; it keeps a mirror in memory and
 * writes each destination's queue through to the store before a change counts, so a
 * SIGKILL at any moment loses nothing that was acknowledged as queued. The index document, how
 * a new poller finds the queues, names every destination with a queue and perhaps some whose
 * queue has emptied since (see #forget, and ADR 002).
 */
export class Outbox {
  readonly #keyv: Keyv;
  readonly #keys: DirectoryKeys;
  readonly #queues = new Map<string, OutboxEntry[]>();
  /** Serialises writes per destination so two changes never race on one document. */
  readonly #writes = new Map<string, Promise<void>>();
  /** The latest index write, started or waiting for the one before it. */
  #indexWrite: Promise<void> = Promise.resolve();
  /** An index write not started yet: it names whatever is queued when it starts, so joining it is enough. */
  #indexWaiting: Promise<void> | undefined;
  /** The names the latest started index write holds. */
  #indexed = new Set<string>();
  /** How many of `#indexed` have no queue any more (see #forget). */
  #stale = 0;
  /** Which destinations' queues changed, for the dispatcher (see QueueChanges). */
  readonly changes = new QueueChanges();

  /** `directoryId`: the directory whose items this outbox holds (see directory-keys.ts). */
  constructor(options: { keyv: Keyv; directoryId: string }) {
    this.#keyv = options.keyv;
    this.#keys = directoryKeys(options.directoryId);
  }

  /** Loads every pending entry from the store (on becoming the poller). */
  async load(): Promise<number> {
    this.changes.changed(this.#queues.keys());
    this.#queues.clear();
    const destinations = (await this.#keyv.get<string[]>(this.#keys.outboxIndex)) ?? [];
    const queues = await this.#keyv.getMany<OutboxEntry[]>(destinations.map(this.#keys.outboxQueue));
    let count = 0;
    destinations.forEach((destination, index) => {
      const entries = queues[index];
      if (entries && entries.length > 0) {
        // The previous poller may have posted an entry and died before removing it.
        for (const entry of entries) (entry as WritableEntry).recovered = true;
        this.#queues.set(destination, entries);
        count += entries.length;
      }
    });
    this.#indexed = new Set(destinations);
    this.#stale = destinations.length - this.#queues.size;
    this.changes.changed(this.#queues.keys());
    return count;
  }

  /** Queued here, or handed on to delivery workers and perhaps not delivered yet (`handedOver`). */
  has(destinationKey: string, itemKey: string): boolean {
    if (this.handedOver(destinationKey, itemKey)) return true;
    return this.#queues.get(destinationKey)?.some((e) => e.itemKey === itemKey) ?? false;
  }

  /** Set by the hand-off to delivery workers (delivery/workers/hand-off.ts); never, without one. */
  handedOver: (destinationKey: string, itemKey: string) => boolean = () => false;

  /** Every queued entry, destination by destination, each FIFO in order. */
  entries(): OutboxEntry[] {
    return [...this.#queues.values()].flat();
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
    // The dispatcher sees them at once, as it always has: a failed index write leaves them queued in memory.
    this.changes.changed(byDestination.keys());
    // The index first: a queue document the index does not name would never be reloaded.
    if (newDestinations.length > 0) await this.#persistIndex();
    await this.#persistQueues([...byDestination.keys()]);
    return added;
  }

  /**
   * Queues an edit durably, coalesced: a pending edit of the same message is replaced by this
   * newer state (not sent before the pending one was due, but a deletion waits for nothing).
   */
  async enqueueEdit(entry: OutboxEntry): Promise<'queued' | 'coalesced'> {
    const queue = this.#queues.get(entry.destinationKey);
    const index = queue?.findIndex((e) => e.itemKey === entry.itemKey) ?? -1;
    if (queue && index >= 0) {
      const due = entry.edit?.delete ? entry.notBefore : Math.max(entry.notBefore, queue[index]!.notBefore);
      queue[index] = { ...entry, notBefore: due };
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
   * What the store holds queued for one destination, in order: what any instance can see (the
   * poller's memory may be a moment ahead of it, by an in-memory backoff). For reading only.
   */
  async stored(destinationKey: string): Promise<readonly OutboxEntry[]> {
    return (await this.#keyv.get<OutboxEntry[]>(this.#keys.outboxQueue(destinationKey))) ?? [];
  }

  /**
   * Destinations with entries, each with the entry to send next (`head`): its oldest new message, or its
   * oldest edit when no new message waits, so under a 429 storm edits never starve new items.
   */
  heads(): OutboxEntry[] {
    return [...this.#queues.keys()].map((d) => this.head(d)).filter((head) => head !== undefined);
  }

  head(destinationKey: string): OutboxEntry | undefined {
    const queue = this.#queues.get(destinationKey);
    return queue?.find((e) => e.edit === undefined) ?? queue?.[0];
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
    const current = this.#queues.get(entry.destinationKey)?.find((e) => e.itemKey === entry.itemKey) as
      | WritableEntry
      | undefined;
    if (!current) return;
    if (countAttempt) current.attempts += 1;
    current.notBefore = notBefore;
    await this.#persistQueue(entry.destinationKey);
  }

  /**
   * The platform confirmed the post (at `reference`, when it said where), but the ledger does not
   * know yet: a later attempt only records it, never posts again. In memory: a new poller checks
   * the ledger for every entry it loads anyway (`recovered`).
   */
  notePosted(entry: OutboxEntry, reference: PostedReference | undefined): void {
    const writable = entry as WritableEntry;
    writable.posted = true;
    if (reference !== undefined) writable.reference = reference;
  }

  /** The ledger was checked for a recovered entry and does not have it: post it like any other. */
  noteChecked(entry: OutboxEntry): void {
    (entry as WritableEntry).recovered = false;
  }

  /**
   * The store failed around an attempt: count it and wait until `notBefore`, in memory only (the
   * store is what failed); the next attempt checks the ledger first, because its `attempts` is
   * above zero.
   */
  backOffInMemory(entry: OutboxEntry, notBefore: number): void {
    const writable = entry as WritableEntry;
    writable.attempts += 1;
    writable.notBefore = notBefore;
  }

  /** Drops everything queued for a destination that failed permanently; returns what was dropped. */
  async dropDestination(destinationKey: string): Promise<OutboxEntry[]> {
    const dropped = this.#queues.get(destinationKey) ?? [];
    this.#queues.set(destinationKey, []);
    await this.#persistQueue(destinationKey);
    // Unlike a drained queue's, a dropped destination leaves the index at once: it may be a
    // removed workspace's channel, whose name the store should no longer hold. A rewrite already
    // under way without it is enough, once it lands.
    await (this.#indexed.has(destinationKey) ? this.#persistIndex() : this.#indexWrite);
    return dropped;
  }

  #persistQueue(destination: string): Promise<void> {
    return this.#persistQueues([destination]);
  }

  /**
   * Writes the destinations' queues as they are when the write starts, after each one's previous
   * write, in one store call when there are several (enqueue's fan-out: one round trip on Redis
   * and PostgreSQL instead of one per channel). Each document is independent, so a crash
   * half-way leaves some queues written and the enqueue unacknowledged, as one call at a time.
   */
  #persistQueues(destinations: readonly string[]): Promise<void> {
    this.changes.changed(destinations);
    const previous = destinations.map((d) => (this.#writes.get(d) ?? Promise.resolve()).catch(() => {}));
    const next = Promise.all(previous).then(async () => {
      const documents: { key: string; value: OutboxEntry[] }[] = [];
      const emptied: string[] = [];
      for (const destination of destinations) {
        const queue = this.#queues.get(destination) ?? [];
        if (queue.length > 0) documents.push({ key: this.#keys.outboxQueue(destination), value: queue });
        else {
          // Forget it synchronously, before any await: an enqueue that arrives meanwhile
          // starts a fresh queue (and index entry) instead of pushing into a dead one.
          this.#queues.delete(destination);
          emptied.push(destination);
        }
      }
      await Promise.all([...this.#setDocuments(documents), ...emptied.map((d) => this.#forget(d))]);
    });
    for (const destination of destinations) this.#writes.set(destination, next);
    return next;
  }

  #setDocuments(documents: readonly { key: string; value: OutboxEntry[] }[]): Promise<unknown>[] {
    if (documents.length === 1) return [this.#keyv.set(documents[0]!.key, documents[0]!.value)];
    const writes: Promise<unknown>[] = [];
    for (let start = 0; start < documents.length; start += SET_MANY_BATCH)
      writes.push(this.#keyv.setMany(documents.slice(start, start + SET_MANY_BATCH)));
    return writes;
  }

  /**
   * Deletes an emptied queue's document. Its name stays in the index for now: rewriting the
   * index (every destination with a queue) each time a queue empties made draining a fan-out to
   * N channels cost N rewrites of N names. A name without a document is harmless — `load`
   * finds nothing under it — so removal may lag; only additions must be durable before an
   * enqueue counts, and every addition rewrites the index whole, dropping stale names with it.
   * Otherwise the index is rewritten once its stale names are as many as its live ones: each
   * rewrite follows at least as many emptied queues as it writes names, so a delivery costs
   * O(1) index work however many destinations are queued, and the index never names more than
   * twice the destinations that have a queue (plus the one just emptied).
   */
  async #forget(destination: string): Promise<void> {
    await this.#keyv.delete(this.#keys.outboxQueue(destination));
    if (this.#queues.has(destination) || !this.#indexed.has(destination)) return;
    this.#stale += 1;
    if (this.#stale >= this.#queues.size) await this.#persistIndex();
  }

  /** Rewrites the index to name every destination with a queue; a write not started yet is joined. */
  #persistIndex(): Promise<void> {
    if (this.#indexWaiting) return this.#indexWaiting;
    const write = this.#indexWrite
      .catch(() => {})
      .then(async () => {
        this.#indexWaiting = undefined;
        const names = [...this.#queues.keys()];
        this.#indexed = new Set(names);
        this.#stale = 0;
        await this.#keyv.set(this.#keys.outboxIndex, names);
      });
    this.#indexWaiting = write;
    this.#indexWrite = write;
    return write;
  }
}

/**
 * Who follows which destinations' queues changed (the dispatcher), so that after a delivery it
 * re-reads only those heads instead of every destination's. Each watcher has its own set.
 */
export class QueueChanges {
  readonly #watchers: Set<string>[] = [];

  /** A new watcher: `take` returns the destinations changed since the last `take` (at first, `current`). */
  watch(current: Iterable<string>): { take(): string[] } {
    const changed = new Set(current);
    this.#watchers.push(changed);
    return {
      take: () => {
        const destinations = [...changed];
        changed.clear();
        return destinations;
      },
    };
  }

  changed(destinations: Iterable<string>): void {
    for (const destination of destinations) for (const changed of this.#watchers) changed.add(destination);
  }
}
