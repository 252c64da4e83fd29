import type { DirectoryCollection } from '../directory/index.js';
import { background, type Feed, type FeedDependencies, rememberIds } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

export interface CollectionsFeedState {
  /** Ids of featured collections already handed on (bounded). */
  seen: string[];
  /** Latest `featured_at` seen, epoch ms. */
  watermark: number;
}

/**
 * A collection edited long after it was featured moves to the top of `updated_at` order
 * too; only one featured within this window of the watermark counts as newly featured.
 */
const FEATURED_GRACE_MS = 6 * 60 * 60 * 1000;

/**
 * Newly featured collections. Featuring bumps `updated_at`, so the newest page of featured
 * collections by `updated_at` holds every new one. Dedupe is on the id, never on an id
 * cursor: a collection created years ago and featured today has a small id.
 */
export function createCollectionsFeed(deps: FeedDependencies): Feed<CollectionsFeedState> {
  const { client, clock } = deps;
  return {
    name: 'collections',
    quotaClass: 'v1',
    costPerPoll: 1,
    async poll(state, signal) {
      const result = await client.listCollections(
        { featured: true, perPage: 50, sortBy: 'updated_at', order: 'desc' },
        background(signal),
      );
      if (result.notModified && state) return { items: [], nextState: state };
      const featured = result.items.filter((c) => c.featuredAt !== undefined);
      const featuredTimes = featured.map((c) => Date.parse(c.featuredAt ?? ''));
      const newestFeaturedAt = Math.max(state?.watermark ?? 0, ...featuredTimes.filter(Number.isFinite));
      if (!state) {
        return {
          items: [],
          nextState: {
            seen: rememberIds(
              [],
              featured.map((c) => c.id),
            ),
            watermark: newestFeaturedAt,
          },
        };
      }
      const now = clock.now();
      const fresh = featured.filter((c) => isNewlyFeatured(c, state));
      const items: FeedItem[] = fresh
        .sort((a, b) => Date.parse(a.featuredAt ?? '') - Date.parse(b.featuredAt ?? ''))
        .map((collection) => toItem(collection, now));
      return {
        items,
        observed: featured.map((collection) => toItem(collection, now)),
        ...(result.skipped > 0 ? { observedPartial: true } : {}),
        nextState: {
          seen: rememberIds(
            state.seen,
            fresh.map((c) => c.id),
          ),
          watermark: newestFeaturedAt,
        },
      };
    },
    async recent(query, call) {
      const now = clock.now();
      const result = await client.listCollections(
        { featured: true, perPage: query.limit, sortBy: 'updated_at', order: 'desc' },
        call,
      );
      return result.items.map((collection) => toItem(collection, now));
    },
  };
}

function toItem(collection: DirectoryCollection, now: number): FeedItem {
  return makeFeedItem('collections', 'new', { type: 'collection', collection }, now);
}

/** Whether a poll with this state would hand a featured collection on as newly featured. */
export function isNewlyFeatured(collection: DirectoryCollection, state: CollectionsFeedState): boolean {
  return (
    !state.seen.includes(collection.id) &&
    Date.parse(collection.featuredAt ?? '') >= state.watermark - FEATURED_GRACE_MS
  );
}
