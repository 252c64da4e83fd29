import type { CallOptions, DirectoryClient, Priority, QuotaClass } from '../directory/index.js';
import type { Clock } from '../ports/index.js';
import type { FeedItem } from './feed-item.js';
import type { FeedName } from './feed-names.js';

/** What `Feed.recent` is asked for. */
export interface RecentQuery {
  /** At most this many records; a feed whose upstream pages are smaller reads one full page. */
  limit: number;
  /**
   * The post (id or slug) the caller is about to filter on. A feed that can narrow its upstream
   * query by it does (comments, by a numeric id); the caller still filters what comes back.
   */
  post?: string;
}

export interface FeedPollResult<State> {
  items: FeedItem[];
  /** Persisted only after every item is durably queued, so a crash re-finds them. */
  nextState: State;
  /**
   * Everything this poll's own requests listed, as `new` items with their current values (votes,
   * status, product count), in the feed's listing order: what keeps posted messages current
   * without another request. Absent when the feed cannot tell (a seeding poll, a 304).
   */
  observed?: FeedItem[];
  /**
   * `observed` is the newest records of the feed: everything newer than its oldest would be in
   * it, so a remembered record newer than all of them was removed too (not merely unlisted).
   * "Newer" is by the feed's position (see refresh-shown): creation for posts and comments, the
   * start for live events, whose listing holds everything after its oldest once read to its end.
   */
  observedThroughNewest?: boolean;
  /**
   * `observed` lists every record with an id in this span (above exclusive, through inclusive;
   * no `above`: every id up to `through`; no `through`: every id above `above`, a listing cut by
   * id from the newest): a remembered record in it and not listed was removed. Where a listing is
   * cut by id, this judges it, not the records' times, which may disagree with their ids.
   */
  observedIds?: { above?: string; through?: string };
  /**
   * A record of the listing failed validation and was left out: it could be any of the
   * remembered ones, so nothing is judged removed from this listing (values are still refreshed).
   */
  observedPartial?: boolean;
  /**
   * Remember `items` as if listed, so a later listing that leaves one out marks it removed even
   * when no listing saw it before (comments: found between checks).
   */
  rememberFound?: boolean;
}

/**
 * One upstream source of news. `poll` is pure with respect to storage: it gets the last
 * state and returns the next one; the pipeline decides when that state is saved.
 * A poll with no state seeds: it records what exists now and returns no items, so a
 * first start never floods channels with history.
 */
export interface Feed<State = unknown> {
  readonly name: FeedName;
  /** Which directory quota one poll spends. */
  readonly quotaClass: QuotaClass;
  /** What one poll usually costs in that class (requests, or complexity points), for cadence planning. */
  readonly costPerPoll: number;
  /** `signal` aborts upstream calls (and quota waits) on shutdown. */
  poll(state: State | undefined, signal?: AbortSignal): Promise<FeedPollResult<State>>;
  /**
   * The feed's latest records as `new` items, discovered now: newest first (live events: the
   * ones not yet started, soonest first). One upstream request, shaped as this feed reads its
   * source (live events: as many pages as reach past the events that already started); it
   * neither reads nor moves poll state. It answers "what would a subscription to this feed
   * have received lately" (the subscribe preview).
   */
  recent(query: RecentQuery, call?: CallOptions): Promise<FeedItem[]>;
  /** Runs after the items of a poll are durably queued (e.g. clear notifications upstream). */
  afterQueued?(items: readonly FeedItem[]): Promise<void>;
}

export interface FeedDependencies {
  client: DirectoryClient;
  clock: Clock;
}

/** Ids seen recently, newest last, bounded so state never grows without limit. */
export function rememberIds(previous: readonly string[], added: readonly string[], limit = 1000): string[] {
  const merged = [...previous.filter((id) => !added.includes(id)), ...added];
  return merged.slice(Math.max(0, merged.length - limit));
}

/** Compares numeric-string ids (V1 ids are integers that may exceed 2^53 one day). */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export const BACKGROUND = { priority: 'background' } as const;

/**
 * Whether a follow-up page fits the budget right now (background: above the lookup reserve).
 * A poll fetches its first page at the cadence the quota allows; further pages are extra
 * spend, and waiting for them would hold up every other feed. Skipped pages are fetched by
 * the next poll.
 */
export function canAffordAnotherPage(
  client: DirectoryClient,
  quotaClass: QuotaClass,
  cost: number,
  priority: Priority = 'background',
): boolean {
  return client.ledger.check(quotaClass, cost, priority).ok;
}

/** Call options for a feed's upstream requests: background priority, abortable on shutdown. */
export function background(signal: AbortSignal | undefined) {
  return signal ? { ...BACKGROUND, signal } : BACKGROUND;
}
