import type Keyv from 'keyv';
import type { HeldItem } from '../messages/index.js';
import type { Message } from '../ports/index.js';
import { SCHEDULE_LIMITS } from '../schedule/index.js';
import { type DirectoryKeys, directoryKeys } from '../store/index.js';

export type HoldReason = HeldItem['reason'];

/** Messages one subscription posted in its current local hour or day (for `--max-per-hour/-day`). */
export interface CapCount {
  /** The window's start, epoch ms (a new window starts a new count). */
  start: number;
  count: number;
}

/**
 * Everything a schedule keeps for one subscription: the items it holds back and when they go.
 * Only the poller writes it (the feed runner holds, the schedule runner releases), before the
 * feed's cursor moves, so a held item is as durable as a queued one.
 */
export interface HeldState {
  /** Oldest first; at most HELD_LIMIT (see `holdItems`). */
  items: HeldItem[];
  /** Items let go because the list was full, by why they were held: counted, said in the summary. */
  omitted: Partial<Record<HoldReason, number>>;
  /** The last digest slot sent (epoch ms); for a new digest, the slot before it started. */
  lastDigestAt?: number;
  /** Quiet hours holding items end here (epoch ms). */
  quietUntil?: number;
  /** A full volume-cap window holding items ends here (epoch ms). */
  capUntil?: number;
  sentThisHour?: CapCount;
  sentToday?: CapCount;
  /**
   * A release under way: written before its messages are queued, so a restart finishes the same
   * release (same items: those held for `kind` and found before `before`; same outbox keys)
   * instead of starting another that would post them twice.
   */
  releasing?: { kind: HoldReason; before: number; lateFor?: number };
  /** Item keys of recent releases: an item found again (a crash before its cursor moved) is not held twice. */
  released?: string[];
}

/**
 * A subscription's latest digest or summary too long for one message, every part numbered
 * "(1/3)"…: what `/directory digest` shows (issue 29), whatever the channel could see of it. One
 * that fits one message is whole in the channel and not kept (a write per release saved). Kept
 * beside the held state, not in it: every tick reads every held state, and this is a whole digest.
 */
export interface LatestRelease {
  kind: HoldReason;
  /** The instant it was due (the slot, or the end of quiet hours or of the cap window). */
  before: number;
  parts: Message[];
}

/**
 * At most this many items are held per subscription: the store plateaus however long a channel
 * is quiet or capped. Beyond it the least wanted are let go and counted (`omitted`): for a
 * `--top N` digest the fewest votes, otherwise the oldest. No digest shows more than 50 items
 * (`--top` ≤ 50) and a summary lists them by title, so 100 loses nothing a reader would see.
 */
export const HELD_LIMIT = SCHEDULE_LIMITS.heldItems;

export function emptyHeldState(): HeldState {
  return { items: [], omitted: {} };
}

/**
 * Adds items to a held list: one already held is refreshed (its votes move), one just released is
 * skipped; then the list is cut to HELD_LIMIT. Returns how many were new.
 */
export function holdItems(state: HeldState, items: readonly HeldItem[], byVotes: boolean): number {
  const released = new Set(state.released ?? []);
  const position = new Map(state.items.map((item, i) => [item.itemKey, i]));
  let added = 0;
  for (const item of items) {
    if (released.has(item.itemKey)) continue;
    const at = position.get(item.itemKey);
    if (at !== undefined) {
      const { votes, comments } = item;
      state.items[at] = {
        ...state.items[at]!,
        ...(votes === undefined ? {} : { votes }),
        ...(comments === undefined ? {} : { comments }),
      };
      continue;
    }
    position.set(item.itemKey, state.items.length);
    state.items.push(item);
    added += 1;
  }
  if (state.items.length > HELD_LIMIT) {
    const ranked = [...state.items].sort((a, b) =>
      byVotes
        ? (b.votes ?? 0) - (a.votes ?? 0) || b.discoveredAt - a.discoveredAt
        : b.discoveredAt - a.discoveredAt,
    );
    const kept = new Set(ranked.slice(0, HELD_LIMIT));
    for (const item of ranked.slice(HELD_LIMIT))
      state.omitted[item.reason] = (state.omitted[item.reason] ?? 0) + 1;
    state.items = state.items.filter((item) => kept.has(item));
  }
  return added;
}

/** A change to one subscription's state: `next` to write it, `null` to delete it, absent to leave it. */
export type HeldChange<R> = { next?: HeldState | null; result: R };

/**
 * The held items and schedule state of every scheduled subscription, one store document each
 * plus an index naming them (so a removed subscription's document is found and deleted). Only
 * the poller uses it; changes to one subscription run one after another in this process.
 */
export class HeldItems {
  readonly #keyv: Keyv;
  readonly #keys: DirectoryKeys;
  readonly #chains = new Map<string, Promise<unknown>>();
  #index: Promise<Set<string>> | undefined;
  #indexWrite: Promise<void> = Promise.resolve();

  constructor(options: { keyv: Keyv; directoryId: string }) {
    this.#keyv = options.keyv;
    this.#keys = directoryKeys(options.directoryId);
  }

  /** Subscriptions with a stored document. */
  async ids(): Promise<string[]> {
    return [...(await this.#loadIndex())];
  }

  /** The stored states of these subscriptions (absent: none stored). */
  async read(ids: readonly string[]): Promise<Map<string, HeldState>> {
    const found = new Map<string, HeldState>();
    if (ids.length === 0) return found;
    const values = await this.#keyv.getMany<HeldState>(ids.map((id) => this.#keys.held(id)));
    ids.forEach((id, i) => {
      const value = values[i];
      if (value) found.set(id, value);
    });
    return found;
  }

  /** Reads, changes and writes one subscription's state, after this process's earlier changes to it. */
  update<R>(id: string, change: (current: HeldState | undefined) => HeldChange<R>): Promise<R> {
    const previous = this.#chains.get(id) ?? Promise.resolve();
    const run = previous
      .catch(() => {})
      .then(async () => {
        const current = await this.#keyv.get<HeldState>(this.#keys.held(id));
        const { next, result } = change(current ?? undefined);
        if (next === null) await this.#forget(id);
        else if (next !== undefined) await this.#write(id, next);
        return result;
      });
    const settled = run.finally(() => {
      if (this.#chains.get(id) === settled) this.#chains.delete(id);
    });
    this.#chains.set(
      id,
      settled.catch(() => {}),
    );
    return run;
  }

  /** The latest digest or summary released for a subscription (any instance may read it). */
  async latest(id: string): Promise<LatestRelease | undefined> {
    return (await this.#keyv.get<LatestRelease>(this.#keys.heldLatest(id))) ?? undefined;
  }

  /** Replaces it; a subscription's held document going takes it along (see #forget). */
  async keepLatest(id: string, latest: LatestRelease): Promise<void> {
    await this.#keyv.set(this.#keys.heldLatest(id), latest);
  }

  /** Forgets the in-memory index (on becoming the poller: another may have written since). */
  reload(): void {
    this.#index = undefined;
  }

  async #write(id: string, state: HeldState): Promise<void> {
    const index = await this.#loadIndex();
    // The index first: a document the index does not name would never be found and deleted.
    if (!index.has(id)) {
      index.add(id);
      await this.#persistIndex();
    }
    await this.#keyv.set(this.#keys.held(id), state);
  }

  async #forget(id: string): Promise<void> {
    await this.#keyv.delete(this.#keys.heldLatest(id));
    await this.#keyv.delete(this.#keys.held(id));
    const index = await this.#loadIndex();
    if (index.delete(id)) await this.#persistIndex();
  }

  #loadIndex(): Promise<Set<string>> {
    // One load shared by every caller: two loads could each start a set and one lose an id.
    this.#index ??= this.#keyv.get<string[]>(this.#keys.heldIndex).then((ids) => new Set(ids ?? []));
    return this.#index;
  }

  #persistIndex(): Promise<void> {
    this.#indexWrite = this.#indexWrite
      .catch(() => {})
      .then(async () => {
        await this.#keyv.set(this.#keys.heldIndex, [...(await this.#loadIndex())]);
      });
    return this.#indexWrite;
  }
}
