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

/**
 * What happened to each message lately, per destination: the newest ~200 settled attempts
 * (delivered, edited, deleted, failed, refused, dropped, given up), each kept no longer than
 * `ttlMs` (DEDUPE_TTL_DAYS, as the delivered ledger). It answers "why" questions and is never
 * consulted to decide a delivery: the ledger and the outbox do that.
 *
 * Stored in pages of 25 records per destination: the page being written (`…:now`) and up to
 * seven full ones before it (`…:0`…`…:6`, a ring). A write costs one store call when this process
 * wrote the destination's page in the last minute, two otherwise (read the page, write it),
 * and one more (two pages in one call) every 25 records.
 */
export class DeliveryLog implements DeliveryRecorder {
  readonly #keyv: Keyv;
  readonly #keys: DirectoryKeys;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #cache = new Map<string, { page: LogPage; at: number }>();
  /** Writes to one destination's page run one after another in this process. */
  readonly #chains = new Map<string, Promise<void>>();

  constructor(options: { keyv: Keyv; directoryId: string; ttlMs: number; clock: Clock }) {
    this.#keyv = options.keyv;
    this.#keys = directoryKeys(options.directoryId);
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock;
  }

  /** Adds a record to its destination's log; resolves once it is written, rejects when the store failed. */
  record(record: DeliveryRecord): Promise<void> {
    const destination = record.destinationKey;
    const previous = this.#chains.get(destination) ?? Promise.resolve();
    const write = previous.then(() => this.#append(record));
    const settled = write.catch(() => {
      // A failed write leaves the remembered page unknown: read it again next time.
      this.#cache.delete(destination);
    });
    this.#chains.set(destination, settled);
    void settled.then(() => {
      if (this.#chains.get(destination) === settled) this.#chains.delete(destination);
    });
    return write;
  }

  /** The destination's records, newest first, at most `limit`. */
  async recent(destinationKey: string, limit = LOG_LIMIT): Promise<DeliveryRecord[]> {
    return (await this.#read(destinationKey)).slice(0, limit);
  }

  /** The newest record of an item (its post, edit or failure) in a destination. */
  async forItem(destinationKey: string, itemKey: string): Promise<DeliveryRecord | undefined> {
    return (await this.#read(destinationKey)).find((record) => record.itemKey === itemKey);
  }

  async #read(destinationKey: string): Promise<DeliveryRecord[]> {
    const keys = [this.#currentKey(destinationKey), ...this.#archiveKeys(destinationKey)];
    const pages = (await this.#keyv.getMany<LogPage>(keys)).filter((page): page is LogPage => !!page);
    const since = this.#clock.now() - this.#ttlMs;
    return pages
      .sort((a, b) => b.seq - a.seq)
      .flatMap((page) => page.records)
      .filter((record) => record.at > since)
      .slice(0, LOG_LIMIT);
  }

  async #append(record: DeliveryRecord): Promise<void> {
    const destination = record.destinationKey;
    const now = this.#clock.now();
    const cached = this.#cache.get(destination);
    const current =
      cached && now - cached.at < CACHE_FRESH_MS
        ? cached.page
        : ((await this.#keyv.get<LogPage>(this.#currentKey(destination))) ?? { seq: 0, records: [] });
    const live = current.records.filter((r) => r.at > now - this.#ttlMs);
    const oldest = live.at(-1);
    const closes =
      live.length >= LOG_PAGE_SIZE ||
      (oldest !== undefined && now - oldest.at >= this.#ttlMs * PAGE_SPAN_OF_TTL);
    const next: LogPage = closes
      ? { seq: current.seq + 1, records: [record] }
      : { seq: current.seq, records: [record, ...live] };
    const entries = [{ key: this.#currentKey(destination), value: next, ttl: this.#ttlOf(next, now) }];
    if (closes && oldest !== undefined) {
      const archived = { seq: current.seq, records: live };
      const slot = String(current.seq % LOG_ARCHIVED_PAGES);
      entries.push({
        key: this.#keys.deliveryLog(destination, slot),
        value: archived,
        ttl: this.#ttlOf(archived, now),
      });
    }
    if (entries.length === 1) await this.#keyv.set(entries[0]!.key, next, entries[0]!.ttl);
    else await this.#keyv.setMany(entries);
    this.#remember(destination, next, now);
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
