import type Keyv from 'keyv';
import { compareIds } from '../feeds/feed.js';
import type { FeedItem, FeedRecord } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { directoryKeys } from '../store/index.js';

/** An item a feed listed (or found), kept so a later listing that leaves it out can mark it removed. */
export interface Remembered {
  key: string;
  position: number;
  record: FeedRecord;
  /** The record's id (absent in memory saved before ids were kept: read from the key). */
  id?: string;
  /** When a listing last showed it present (a found item: when it was found). */
  checkedAt?: number;
  /** The newest listing no longer reaches it: only a look further back can judge it. */
  beyond?: boolean;
}

/** How a poll's listing covers its feed (see FeedPollResult). */
export interface Listing {
  throughNewest?: boolean;
  ids?: { above?: string; through?: string };
  /** A record left out as invalid: judge nothing removed (see FeedPollResult.observedPartial). */
  partial?: boolean;
  /**
   * Items found by this poll, remembered alongside the listing; given (even empty), memory
   * accumulates: what a listing does not reach is kept until one does (or it ages out).
   */
  found?: readonly FeedItem[];
}

/** A memory that accumulates holds at most this many items, the newest. */
const ACCUMULATED_LIMIT = 300;

export function memoryKey(directoryId: string, feed: FeedName): string {
  return directoryKeys(directoryId).feedState(`${feed}:shown`);
}

function idOf(remembered: Remembered): string {
  return remembered.id ?? remembered.key.slice(remembered.key.lastIndexOf(':') + 1);
}

/** Whether `remembered` lies inside what the listing covers by id (no id span: undefined). */
export function inIdSpan(remembered: Remembered, listing: Listing): boolean | undefined {
  if (listing.ids === undefined) return undefined;
  const id = idOf(remembered);
  const { above, through } = listing.ids;
  return (
    (through === undefined || compareIds(id, through) <= 0) &&
    (above === undefined || compareIds(id, above) > 0)
  );
}

/**
 * The memory after an accumulating listing: what was remembered and not found removed (checked
 * now when the listing covered it), plus the listed and found items that `delivered` says some
 * channel holds a message for; newest `ACCUMULATED_LIMIT`, none older than `keepMs`.
 */
export function accumulate(
  previous: readonly Remembered[],
  listing: Listing & { observed: readonly FeedItem[] },
  judged: { removed: ReadonlySet<string>; covers: (r: Remembered) => boolean },
  deps: {
    now: number;
    keepMs: number;
    position: (record: FeedRecord) => number;
    delivered: (item: FeedItem) => boolean;
  },
): Remembered[] {
  const { now } = deps;
  const next = new Map<string, Remembered>();
  for (const r of previous) {
    if (judged.removed.has(r.key)) continue;
    const covered = judged.covers(r);
    next.set(r.key, {
      ...r,
      ...(covered ? { checkedAt: now } : {}),
      // Past the newest listing's reach once it runs on without it; back in reach if listed again.
      beyond: listing.throughNewest ? !covered : r.beyond === true,
    });
  }
  for (const item of [...listing.observed, ...(listing.found ?? [])]) {
    if (!next.has(item.key) && !deps.delivered(item)) continue;
    next.set(item.key, {
      key: item.key,
      id: item.id,
      position: deps.position(item.record),
      record: item.record,
      checkedAt: now,
      beyond: false,
    });
  }
  return [...next.values()]
    .filter((r) => Number.isFinite(r.position) && now - r.position <= deps.keepMs)
    .sort((a, b) => a.position - b.position)
    .slice(-ACCUMULATED_LIMIT);
}

/**
 * The remembered item past the newest listing's reach that was checked longest ago: what the
 * comments feed's next look back asks about (see comment-check). Undefined when there is none.
 */
export async function olderToCheck(
  store: Keyv,
  directoryId: string,
  feed: FeedName,
): Promise<string | undefined> {
  const remembered = (await store.get<Remembered[]>(memoryKey(directoryId, feed))) ?? [];
  let oldest: Remembered | undefined;
  for (const r of remembered) {
    if (r.beyond !== true) continue;
    if (oldest === undefined || (r.checkedAt ?? 0) < (oldest.checkedAt ?? 0)) oldest = r;
  }
  return oldest === undefined ? undefined : idOf(oldest);
}
