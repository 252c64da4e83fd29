import type Keyv from 'keyv';
import type { Clock } from '../ports/index.js';
import { type DirectoryKeys, directoryKeys, UNPREFIXED_KEYS } from '../store/index.js';

/** A delivered message's place on its platform (Slack `ts`, Discord message id). */
export interface PostedReference {
  messageId: string;
  /** Epoch ms the platform confirmed it. */
  postedAt: number;
  /** The thread started from (Discord) or under (Slack: the parent's ts) this message, if any. */
  threadId?: string;
  /**
   * The channel this message itself lives in, when not the destination's (Discord: a reply in a
   * thread, a forum post in its own thread); unlike `threadId`, where its edits are sent.
   */
  channelId?: string;
  /** The changeable values the message shows (see shownState): an edit is owed only when they change. */
  shown?: string;
  /** Epoch ms the last edit was (or is due to be) sent: the next waits EDIT_MIN_INTERVAL_S from it. */
  editedAt?: number;
}

/**
 * An edit's half of a posted message's reference, kept under its own key (see `noteShown`). It
 * names the message it describes: a state left by a message the ledger has since forgotten is
 * never taken for a later post's.
 */
export interface ShownState {
  messageId: string;
  shown: string;
  editedAt?: number;
}

/**
 * Remembers what each destination already received, one key per (destination, item, event
 * kind), with a TTL longer than any feed window so the store plateaus instead of growing.
 * Item ids are the directory's, so the ledger is kept per directory: "live event 111 was
 * posted here" says nothing about another directory's event 111.
 */
export class DeliveredLedger {
  readonly #keyv: Keyv;
  readonly #ttlMs: number;
  readonly #keys: DirectoryKeys;
  #unprefixed: { until: number; clock: Clock } | undefined;

  constructor(options: { keyv: Keyv; ttlMs: number; directoryId: string }) {
    this.#keyv = options.keyv;
    this.#ttlMs = options.ttlMs;
    this.#keys = directoryKeys(options.directoryId);
  }

  /**
   * Marks delivered; call only after the platform confirmed the post. `reference` (the posted
   * message's id on its platform) is kept as the entry's value, so the message can later be
   * threaded under or edited for as long as the ledger remembers it, and a SIGKILL can never
   * separate "delivered" from "where".
   */
  async markDelivered(destination: string, itemKey: string, reference?: PostedReference): Promise<void> {
    await this.#keyv.set(this.#keys.delivered(destination, itemKey), reference ?? 1, this.#ttlMs);
  }

  /**
   * Where the item was posted in that destination, with what it shows now; undefined when unknown
   * or never posted.
   */
  async reference(destination: string, itemKey: string): Promise<PostedReference | undefined> {
    const [posted, state] = (await this.#keyv.getMany([
      this.#keys.delivered(destination, itemKey),
      this.#keys.shown(destination, itemKey),
    ])) as [PostedReference | 1 | null | undefined, ShownState | null | undefined];
    if (typeof posted !== 'object' || posted === null) return undefined;
    if (!state || state.messageId !== posted.messageId) return posted;
    // Entries written before the edit state had its own key carry it inline; the key is newer.
    const { shown: _shown, editedAt: _editedAt, ...place } = posted;
    const { messageId: _messageId, ...shown } = state;
    return { ...place, ...shown };
  }

  /**
   * Records the thread started from a posted message. Only thread starts rewrite the entry after
   * the post, and they leave what it shows alone (that is `noteShown`'s key), so an edit recorded
   * meanwhile is never undone.
   */
  async noteThread(destination: string, itemKey: string, threadId: string): Promise<void> {
    const key = this.#keys.delivered(destination, itemKey);
    const value = await this.#keyv.get<PostedReference | 1>(key);
    if (typeof value !== 'object' || value === null) return;
    await this.#keyv.set(key, { ...value, threadId }, this.#ttlMs);
  }

  /**
   * Records what a posted message shows and when its last edit is due, under a key of its own: a
   * thread start recorded meanwhile (the entry's `threadId`) is never undone by it.
   */
  async noteShown(destination: string, itemKey: string, state: ShownState): Promise<void> {
    await this.#keyv.set(this.#keys.shown(destination, itemKey), state, this.#ttlMs);
  }

  /**
   * Also trust the ledger of versions before directory keys until `until` (when its last
   * entry has expired), for every destination but the console: after the upgrade this
   * directory adopted that state, and those entries are what stops the first polls from
   * sending "starting soon" again. Console entries may be a sandbox's, naming invented ids.
   */
  consultUnprefixedEntries(until: number, clock: Clock): void {
    this.#unprefixed = { until, clock };
  }

  /** Which of the (destination, item) pairs were already delivered. */
  async delivered(pairs: readonly { destination: string; itemKey: string }[]): Promise<boolean[]> {
    if (pairs.length === 0) return [];
    const values = await this.#keyv.getMany(pairs.map((p) => this.#keys.delivered(p.destination, p.itemKey)));
    const found = values.map((value) => value !== undefined && value !== null);
    const legacy = this.#unprefixed;
    if (!legacy || legacy.clock.now() >= legacy.until) return found;
    const unsure = pairs.flatMap((p, i) => (found[i] || p.destination.startsWith('console:') ? [] : [i]));
    if (unsure.length === 0) return found;
    const old = await this.#keyv.getMany(
      unsure.map((i) => UNPREFIXED_KEYS.delivered(pairs[i]!.destination, pairs[i]!.itemKey)),
    );
    unsure.forEach((pairIndex, i) => {
      if (old[i] !== undefined && old[i] !== null) found[pairIndex] = true;
    });
    return found;
  }
}
