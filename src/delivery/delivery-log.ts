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
 * One settled attempt at one channel, kept so `/directory why` (and the control panel) can say
 * what became of an item: where it was posted, or what the platform answered.
 */
export interface DeliveryRecord {
  /** Epoch ms the attempt settled. */
  at: number;
  destinationKey: string;
  /** The item's key (an edit's or deletion's too: without `#edit`), or a digest's `digest:<subscription>:<slot>:<part>`. */
  itemKey: string;
  outcome: DeliveryLogOutcome;
  /** The platform's error code, for anything but delivered / edited / deleted. */
  code?: string;
  /** The platform's reason, in its words (at most REASON_LIMIT characters). */
  reason?: string;
  /** The posted message's id on its platform (Slack `ts`, Discord message id). */
  messageId?: string;
  /** A link to the posted message, where the platform has one (`ChatAdapter.messageLink`). */
  link?: string;
  /** The message's title (at most TITLE_LIMIT characters): public directory content. */
  title?: string;
  subscriptionIds: string[];
}

/** Records kept per channel at most: the newest win. */
export const DELIVERY_LOG_LIMIT = 200;
export const TITLE_LIMIT = 150;
export const REASON_LIMIT = 300;

export interface DeliveryLogOptions {
  keyv: Keyv;
  /** The directory whose items the records name (see directory-keys.ts). */
  directoryId: string;
  /** How long a record is kept: DEDUPE_TTL_DAYS, as long as the ledger remembers the item. */
  ttlMs: number;
  clock: Clock;
  /** A write that failed; the records it held are lost, nothing else is (logged by the caller). */
  onError?: (error: unknown) => void;
  /** Records per channel; default DELIVERY_LOG_LIMIT. */
  limit?: number;
}

/**
 * The newest settled attempts of every channel, one store document per channel: the newest
 * DELIVERY_LOG_LIMIT records, none older than the TTL, the document itself expiring with its
 * newest record. It is bookkeeping beside delivery, never part of it: `record` never rejects,
 * and nothing waits for it to land.
 *
 * Writes are batched: records that arrive while a write is under way go together in the next
 * one, one `getMany` and one `setMany` for every channel in it. A busy dispatcher therefore
 * pays a small fraction of a store call per delivery, a quiet one two calls per delivery. Only
 * this process's writes are ordered; two processes writing one channel's document at the same
 * instant may lose one of their records (the ledger, not this log, is what keeps a delivery
 * exactly once).
 */
export class DeliveryLog {
  readonly #keyv: Keyv;
  readonly #keys: DirectoryKeys;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #limit: number;
  readonly #onError: ((error: unknown) => void) | undefined;
  /** Records not yet written, by channel, oldest first. */
  #pending = new Map<string, DeliveryRecord[]>();
  /** Records of the write under way, until it has landed. */
  #writing = new Map<string, DeliveryRecord[]>();
  /** The write that will take the pending records, not started yet. */
  #queued: Promise<void> | undefined;
  /** The latest write, started or queued: the next one starts after it. */
  #tail: Promise<void> = Promise.resolve();

  constructor(options: DeliveryLogOptions) {
    this.#keyv = options.keyv;
    this.#keys = directoryKeys(options.directoryId);
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock;
    this.#limit = options.limit ?? DELIVERY_LOG_LIMIT;
    this.#onError = options.onError;
  }

  /** Adds a record; resolves once it is written (or its write failed: never rejects). */
  record(record: DeliveryRecord): Promise<void> {
    const list = this.#pending.get(record.destinationKey) ?? [];
    list.push(trimmed(record));
    this.#pending.set(record.destinationKey, list);
    if (this.#queued) return this.#queued;
    const run = this.#tail.then(() => {
      this.#queued = undefined;
      return this.#write();
    });
    this.#queued = run;
    this.#tail = run;
    return run;
  }

  /** Resolves once every record added so far is written (or failed). */
  flushed(): Promise<void> {
    return this.#tail;
  }

  /** A channel's records, newest first (at most `limit`); those of this process not yet written included. */
  async recent(destinationKey: string, limit = this.#limit): Promise<DeliveryRecord[]> {
    const stored = (await this.#keyv.get<DeliveryRecord[]>(this.#keys.deliveryLog(destinationKey))) ?? [];
    const unwritten = [
      ...(this.#writing.get(destinationKey) ?? []),
      ...(this.#pending.get(destinationKey) ?? []),
    ];
    return this.#merged(stored, unwritten).slice(0, limit);
  }

  /** The newest record about one item in one channel (its post, edit, deletion or failure). */
  async forItem(destinationKey: string, itemKey: string): Promise<DeliveryRecord | undefined> {
    return (await this.recent(destinationKey)).find((record) => record.itemKey === itemKey);
  }

  /**
   * Deletes these channels' records, and those this process has not written yet (their workspace
   * was removed): after a write already under way, so it cannot bring a document back.
   */
  async forget(destinationKeys: readonly string[]): Promise<void> {
    for (const key of destinationKeys) this.#pending.delete(key);
    await this.#tail;
    if (destinationKeys.length > 0)
      await this.#keyv.deleteMany(destinationKeys.map((d) => this.#keys.deliveryLog(d)));
  }

  async #write(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    if (batch.size === 0) return;
    this.#writing = batch;
    const destinations = [...batch.keys()];
    const keys = destinations.map((d) => this.#keys.deliveryLog(d));
    try {
      const stored = await this.#keyv.getMany<DeliveryRecord[]>(keys);
      const documents = destinations.map((destination, i) => ({
        key: keys[i]!,
        value: this.#merged(stored[i] ?? [], batch.get(destination) ?? []),
        ttl: this.#ttlMs,
      }));
      if (documents.length === 1) await this.#keyv.set(documents[0]!.key, documents[0]!.value, this.#ttlMs);
      else await this.#keyv.setMany(documents);
    } catch (error) {
      try {
        this.#onError?.(error);
      } catch {
        // A failing listener must not turn a lost record into a failed delivery.
      }
    } finally {
      this.#writing = new Map();
    }
  }

  /**
   * `added` (oldest first) on top of `stored` (newest first). A record replaces an earlier one of
   * the same item with the same outcome (the latest edit is the one worth keeping) or a failure (a
   * retry's outcome supersedes it), so one item's retries and edits never crowd out the others.
   */
  #merged(stored: readonly DeliveryRecord[], added: readonly DeliveryRecord[]): DeliveryRecord[] {
    let records = [...stored];
    for (const record of added) {
      records = records.filter(
        (r) => r.itemKey !== record.itemKey || (r.outcome !== record.outcome && r.outcome !== 'failed'),
      );
      records.unshift(record);
    }
    const oldest = this.#clock.now() - this.#ttlMs;
    return records.filter((r) => r.at > oldest).slice(0, this.#limit);
  }
}

/** The record with its free text cut to size: the document stays small however long a reason is. */
function trimmed(record: DeliveryRecord): DeliveryRecord {
  const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);
  return {
    ...record,
    ...(record.title === undefined ? {} : { title: cut(record.title, TITLE_LIMIT) }),
    ...(record.reason === undefined ? {} : { reason: cut(record.reason, REASON_LIMIT) }),
  };
}
