import type { FeedItem, FeedRecord } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { type FeedFilters, matchesFilters } from './filters.js';

/**
 * Backfill on subscribe (issue 29): `/directory subscribe … --backfill N` (and `backfill=N` in
 * SUBSCRIPTIONS) posts the N most recent matching items once, when the subscription is made, so a
 * new channel does not stay empty until something new arrives. The default, 0, posts nothing.
 */
export const BACKFILL_LIMITS = { min: 0, max: 20 } as const;

/** What the option says when N is not one of 0 to 20 (the command and SUBSCRIPTIONS share it). */
export const BACKFILL_PROBLEM = `must be a whole number from ${BACKFILL_LIMITS.min} to ${BACKFILL_LIMITS.max}`;

/**
 * A backfill asked for and not yet queued, kept on the subscription until the poller has queued
 * its items (src/engine/backfill-runner.ts), so a crash or a restart in between repeats it (the
 * delivered ledger and the outbox keep a repeat from posting anything twice) instead of losing it.
 */
export interface BackfillRequest {
  /** How many of the most recent matching items. */
  count: number;
  /**
   * Names this request: the items the subscribe command chose are kept under it for the poller
   * (a later request replaces it, and only the request queued clears itself).
   */
  token: string;
  /** Epoch ms it was asked for. */
  at: number;
}

/** The instant an item is "from", by which "recent" and "too old to backfill" are judged. */
function itemTime(record: FeedRecord): number {
  switch (record.type) {
    case 'post':
      return Date.parse(record.post.createdAt ?? '');
    case 'comment':
      return Date.parse(record.comment.createdAt);
    case 'collection':
      return Date.parse(record.collection.featuredAt ?? record.collection.createdAt ?? '');
    case 'live':
      return Date.parse(record.event.startsAt ?? '');
    case 'notification':
      return Date.parse(record.notification.createdAt ?? '');
  }
}

/**
 * The items a backfill of `count` posts, in the order the channel gets them, from a feed's recent
 * items (`Feed.recent`: newest first; live events: the next to start, soonest first): the first
 * `count` that match the subscription's filters, oldest first (live events soonest first, as
 * announced).
 *
 * Only items from within `withinMs` of `now` (DEDUPE_TTL_DAYS: live events starting within it) are
 * taken: the delivered ledger remembers a backfilled item that long from when it was posted, so
 * an item old enough to have been forgotten is never backfilled again by a later subscribe. An
 * item the directory gives no time for is left out for the same reason.
 */
export function chooseBackfill(
  recent: readonly FeedItem[],
  subscription: { feed: FeedName; filters: FeedFilters },
  count: number,
  window: { now: number; withinMs: number },
): FeedItem[] {
  const inWindow = (item: FeedItem) => {
    const at = itemTime(item.record);
    return Number.isFinite(at) && Math.abs(window.now - at) <= window.withinMs;
  };
  const chosen = recent
    .filter(
      (item) =>
        item.feed === subscription.feed &&
        item.event === 'new' &&
        inWindow(item) &&
        matchesFilters(item, subscription.filters),
    )
    .slice(0, Math.max(0, count));
  return subscription.feed === 'live' ? chosen : chosen.reverse();
}
