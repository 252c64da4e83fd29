import type Keyv from 'keyv';
import type { Clock } from '../ports/index.js';
import { type DirectoryKeys, directoryKeys } from '../store/index.js';

/** What became of one attempt, as the delivery log keeps it. */
export type DeliveryLogOutcome =
  | 'delivered'
  | 'edited'
  | 'deleted'
  | 'failed'
  | 'rejected'
  | 'dropped'
  | 'abandoned';

/**
 * One settled attempt at one destination: what `/directory why` and the control panel show of
 * it. Public directory content only (the message's title), and where the message is.
 */
export interface DeliveryRecord {
  /** Epoch ms the attempt settled. */
  at: number;
  destinationKey: string;
  /** The item's key (`posts:new:42`), an edit's without its `#edit`, or a release's (`digest:<subscription>:<slot>:<part>`). */
  itemKey: string;
  outcome: DeliveryLogOutcome;
  /** The platform's code for a refusal or failure (`channel_not_found`, `rate_limited`…). */
  code?: string;
  /** The platform's reason, as it said it. */
  reason?: string;
  /** The posted message's id on its platform (Slack `ts`, Discord message id). */
  messageId?: string;
  /** A link to the posted message, where the platform has one (`ChatAdapter.messageLink`). */
  link?: string;
  /** The message's title, so a record reads without the item at hand. */
  title?: string;
  /** The subscriptions the message was for. */
  subscriptionIds: string[];
}

/** Records per page: a write rewrites one page, never the channel's whole log. */
export const LOG_PAGE_SIZE = 25;
/** Full pages kept behind the one being written: with it, at most 200 records per destination. */
export const LOG_ARCHIVED_PAGES = 7;
/** The most records a destination's log holds. */
export const LOG_LIMIT = LOG_PAGE_SIZE * (LOG_ARCHIVED_PAGES + 1);
/**
 * A page is closed once its oldest record is this share of the TTL old, so a page never spans
 * more than an eighth of it: pages expire with their oldest record, and a newer record in the
 * same page goes at most this much before its own time.
 */
const PAGE_SPAN_OF_TTL = 1 / 8;
/** Destinations whose page being written is remembered, so a burst to one costs one write each. */
const CACHED_DESTINATIONS = 512;
/**
 * How long a remembered page is trusted. Another process delivering to the same destination
 * (a worker taking over) writes the store, not this memory; after this a write reads first.
 */
const CACHE_FRESH_MS = 60_000;

interface LogPage {
  /** Counts the destination's pages; an archived page sits in slot `seq % LOG_ARCHIVED_PAGES`. */
  seq: number;
  /** Newest first. */
  records: DeliveryRecord[];
}

/** Where `record` is given the outcomes of DeliveryAttempts: the part of `DeliveryLog` they use. */
export interface DeliveryRecorder {
  record(record: DeliveryRecord): Promise<void>;
}

/** What tells two copies of one record apart from two records: its instant, item and outcome. */
function recordIdentity(record: DeliveryRecord): string {
  return `${record.at}|${record.itemKey}|${record.outcome}|${record.messageId ?? ''}`;
}

/** Destinations one flush reads and writes at most (bounds one getMany or setMany). */
const FLUSH_BATCH = 500;

interface Pending {
  record: DeliveryRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * What happened to each message lately, per destination: the newest ~200 settled attempts
 * (delivered, edited, deleted, failed, refused, dropped, given up), each kept no longer than
 * `ttlMs` (DEDUPE_TTL_DAYS, as the delivered ledger). It answers "why" questions and is never
 * consulted to decide a delivery: the ledger and the outbox do that.
 *
 * Stored in pages of 25 records per destination: the page being written (`…:now`) and up to
 * seven full ones before it (`…:0`…`…:6`, a ring). Records are written in batches across
 * destinations: those settled while a write is under way go together in the next, as one read
 * of the pages this process does not remember (`getMany`) and one write of every page changed
 * (`setMany`). A fan-out to many channels costs two store calls per batch, not per message; a
 * lone record costs one write when its page is remembered (written here in the last minute),
 * else a read and a write.
 */
export class DeliveryLog implements DeliveryRecorder {
  readonly #keyv: Keyv;
  readonly #keys: DirectoryKeys;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  /** How long a page this process wrote is trusted without reading it again (0: never). */
  readonly #cacheFreshMs: number;
  readonly #cache = new Map<string, { page: LogPage; at: number }>();
  /** Records not written yet, in the order they settled. */
  #buffer: Pending[] = [];
  /**
   * The batch being written: out of the buffer, maybe not in the store yet. Reads include it,
   * or a record would vanish from "why" for the length of a store write.
   */
  #writing: readonly Pending[] = [];
  /** The write under way, which takes the buffer again until it is empty. */
  #flushing: Promise<void> | undefined;

  /**
   * `shared`: several processes write it (delivery workers, ADR 005), so a remembered page may be
   * stale and every write reads its page first. A destination is drained by one worker at a time,
   * which waits for its records to be written (`flushed`) before handing the destination on.
   */
  constructor(options: { keyv: Keyv; directoryId: string; ttlMs: number; clock: Clock; shared?: boolean }) {
    this.#cacheFreshMs = options.shared ? 0 : CACHE_FRESH_MS;
    this.#keyv = options.keyv;
    this.#keys = directoryKeys(options.directoryId);
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock;
  }

  /**
   * Adds a record to its destination's log, written with the others of its batch: resolves once
   * it is, rejects when the store failed (the record is then lost, nothing else).
   */
  record(record: DeliveryRecord): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#buffer.push({ record, resolve, reject });
      this.#kick();
    });
  }

  /** Starts a write unless one is under way (it takes what is buffered when it gets there). */
  #kick(): void {
    if (this.#flushing) return;
    this.#flushing = this.#flush().finally(() => {
      this.#flushing = undefined;
      // Handed in after the write's last look at the buffer: write it too.
      if (this.#buffer.length > 0) this.#kick();
    });
  }

  /** Resolves once every record handed in so far is written (or failed): for a clean stop, and tests. */
  async flushed(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  /**
   * Forgets these destinations' logs (their workspace removed the bot): the records not written
   * yet and the pages this process remembers, then, after any write under way, the stored pages.
   * Otherwise the next record for one of them would write its remembered page back.
   */
  async forget(destinationKeys: readonly string[]): Promise<void> {
    const gone = new Set(destinationKeys);
    const kept: Pending[] = [];
    for (const pending of this.#buffer) {
      if (gone.has(pending.record.destinationKey)) pending.resolve();
      else kept.push(pending);
    }
    this.#buffer = kept;
    await this.flushed();
    // After the write under way: it may have remembered one of them again.
    for (const destination of gone) this.#cache.delete(destination);
    const keys = [...gone].flatMap((d) => [this.#currentKey(d), ...this.#archiveKeys(d)]);
    if (keys.length > 0) await this.#keyv.deleteMany(keys);
  }

  /** The destination's records, newest first, at most `limit` (those still being written included). */
  async recent(destinationKey: string, limit = LOG_LIMIT): Promise<DeliveryRecord[]> {
    return (await this.#read(destinationKey)).slice(0, limit);
  }

  /** The newest record of an item (its post, edit or failure) in a destination. */
  async forItem(destinationKey: string, itemKey: string): Promise<DeliveryRecord | undefined> {
    return (await this.#read(destinationKey)).find((record) => record.itemKey === itemKey);
  }

  async #read(destinationKey: string): Promise<DeliveryRecord[]> {
    const unwritten = [...this.#writing, ...this.#buffer]
      .filter((p) => p.record.destinationKey === destinationKey)
      .map((p) => p.record)
      .reverse();
    const keys = [this.#currentKey(destinationKey), ...this.#archiveKeys(destinationKey)];
    const pages = (await this.#keyv.getMany<LogPage>(keys)).filter((page): page is LogPage => !!page);
    const since = this.#clock.now() - this.#ttlMs;
    // The write under way may have landed while the pages were read: show such a record once.
    const pending = new Set(unwritten.map(recordIdentity));
    const stored = pages
      .sort((a, b) => b.seq - a.seq)
      .flatMap((page) => page.records)
      .filter((record) => !pending.has(recordIdentity(record)));
    return [...unwritten, ...stored].filter((record) => record.at > since).slice(0, LOG_LIMIT);
  }

  /** Writes the buffer in batches until it is empty; waits a turn first so records settling together join. */
  async #flush(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#buffer.length > 0) {
      const batch = this.#takeBatch();
      this.#writing = batch;
      try {
        await this.#write(batch);
        for (const pending of batch) pending.resolve();
      } catch (error) {
        // What this process remembers of those pages is unknown now: read them again next time.
        for (const pending of batch) this.#cache.delete(pending.record.destinationKey);
        for (const pending of batch) pending.reject(error);
      } finally {
        this.#writing = [];
      }
    }
  }

  /** The oldest records of at most FLUSH_BATCH destinations (a destination's records stay in order). */
  #takeBatch(): Pending[] {
    const destinations = new Set<string>();
    const taken: Pending[] = [];
    const rest: Pending[] = [];
    for (const pending of this.#buffer) {
      const destination = pending.record.destinationKey;
      if (destinations.has(destination) || destinations.size < FLUSH_BATCH) {
        destinations.add(destination);
        taken.push(pending);
      } else rest.push(pending);
    }
    this.#buffer = rest;
    return taken;
  }

  async #write(batch: readonly Pending[]): Promise<void> {
    const now = this.#clock.now();
    const byDestination = new Map<string, DeliveryRecord[]>();
    for (const { record } of batch) {
      const list = byDestination.get(record.destinationKey) ?? [];
      list.push(record);
      byDestination.set(record.destinationKey, list);
    }
    const pages = new Map<string, LogPage>();
    const unknown: string[] = [];
    for (const destination of byDestination.keys()) {
      const cached = this.#cache.get(destination);
      if (cached && now - cached.at < this.#cacheFreshMs) pages.set(destination, cached.page);
      else unknown.push(destination);
    }
    if (unknown.length > 0) {
      const read = await this.#keyv.getMany<LogPage>(unknown.map((d) => this.#currentKey(d)));
      for (const [i, destination] of unknown.entries())
        pages.set(destination, read[i] ?? { seq: 0, records: [] });
    }
    const entries: { key: string; value: LogPage; ttl: number }[] = [];
    for (const [destination, records] of byDestination) {
      let current = pages.get(destination) ?? { seq: 0, records: [] };
      for (const record of records) {
        const { next, closed } = this.#append(current, record, now);
        if (closed) {
          const slot = String(closed.seq % LOG_ARCHIVED_PAGES);
          entries.push({
            key: this.#keys.deliveryLog(destination, slot),
            value: closed,
            ttl: this.#ttlOf(closed, now),
          });
        }
        current = next;
      }
      entries.push({ key: this.#currentKey(destination), value: current, ttl: this.#ttlOf(current, now) });
      pages.set(destination, current);
    }
    if (entries.length === 1) await this.#keyv.set(entries[0]!.key, entries[0]!.value, entries[0]!.ttl);
    else await this.#keyv.setMany(entries);
    for (const [destination, page] of pages)
      if (byDestination.has(destination)) this.#remember(destination, page, now);
  }

  /** The page after `record`; `closed` is the page it filled or aged out, to keep in the ring. */
  #append(current: LogPage, record: DeliveryRecord, now: number): { next: LogPage; closed?: LogPage } {
    const live = current.records.filter((r) => r.at > now - this.#ttlMs);
    const oldest = live.at(-1);
    const closes =
      live.length >= LOG_PAGE_SIZE ||
      (oldest !== undefined && now - oldest.at >= this.#ttlMs * PAGE_SPAN_OF_TTL);
    if (!closes) return { next: { seq: current.seq, records: [record, ...live] } };
    return {
      next: { seq: current.seq + 1, records: [record] },
      ...(oldest === undefined ? {} : { closed: { seq: current.seq, records: live } }),
    };
  }

  /** A page goes when its oldest record's time is up: no record is kept longer than the TTL. */
  #ttlOf(page: LogPage, now: number): number {
    const oldest = page.records.at(-1)?.at ?? now;
    return Math.max(1, oldest + this.#ttlMs - now);
  }

  #remember(destination: string, page: LogPage, now: number): void {
    this.#cache.delete(destination);
    this.#cache.set(destination, { page, at: now });
    if (this.#cache.size > CACHED_DESTINATIONS) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
  }

  #currentKey(destinationKey: string): string {
    return this.#keys.deliveryLog(destinationKey, 'now');
  }

  #archiveKeys(destinationKey: string): string[] {
    return Array.from({ length: LOG_ARCHIVED_PAGES }, (_, slot) =>
      this.#keys.deliveryLog(destinationKey, String(slot)),
    );
  }
}
