import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { destinationKey, type RoutingOptions, routeItem } from './routing.js';
import type { Subscription } from './subscription.js';

/** What a word keyword matches on: a run of letters, digits and `_` (the router's word boundary). */
const WORD = /^[\p{L}\p{N}_]+$/u;
const NOT_WORD = /[^\p{L}\p{N}_]+/u;

/**
 * One feed's subscriptions, each filed under the one filter every item it wants must carry, as
 * positions in the list: candidates are put back in list order by sorting small integers, where
 * looking each one's position up in a map of every subscription costs a cache miss per compare
 * at 100k subscriptions.
 */
interface FeedBuckets {
  /** No post, user or word-keyword filter: every item of the feed is a candidate. */
  any: number[];
  byPost: Map<string, number[]>;
  byUser: Map<string, number[]>;
  byWord: Map<string, number[]>;
}

/** A running platform's active subscriptions, reduced to what decides which feeds to poll. */
export interface ActiveRoute {
  platform: string;
  feed: FeedName;
  remindMinutes: number | undefined;
}

/**
 * Every subscription, indexed so that routing an item, listing a channel's subscriptions and
 * the status summary cost what they return, not the number of subscriptions. Built once per
 * change of the stored list (SubscriptionRepository caches it), read many times per poll.
 *
 * Routing looks up only the buckets an item's facets name (its post ids and slugs, its
 * usernames, its words, and the feed's unfiltered bucket); the router's own `routeItem` then
 * applies every filter to those candidates, so the index can only narrow, never widen, what
 * a subscription receives.
 */
export class SubscriptionIndex {
  readonly size: number;
  readonly #all: readonly Subscription[];
  readonly #byChannel = new Map<string, Subscription[]>();
  readonly #byFeed = new Map<FeedName, FeedBuckets>();
  readonly #paused: Subscription[] = [];
  readonly #active = new Map<string, ActiveRoute>();
  readonly #threadComments: Subscription[] = [];

  constructor(all: readonly Subscription[]) {
    this.size = all.length;
    this.#all = [...all];
    all.forEach((subscription, position) => {
      push(this.#byChannel, destinationKey(subscription.platform, subscription.channelId), subscription);
      if (subscription.paused) {
        this.#paused.push(subscription);
        return;
      }
      const remindMinutes = subscription.feed === 'live' ? subscription.filters.remindMinutes : undefined;
      const route = { platform: subscription.platform, feed: subscription.feed, remindMinutes };
      this.#active.set(JSON.stringify(route), route);
      file(this.#buckets(subscription.feed), subscription, position);
      if (subscription.feed === 'posts' && subscription.threading?.comments && !subscription.threading.off) {
        // Its posts' comments come from the comments feed, which must then be polled.
        this.#threadComments.push(subscription);
        const comments = {
          platform: subscription.platform,
          feed: 'comments' as const,
          remindMinutes: undefined,
        };
        this.#active.set(JSON.stringify(comments), comments);
      }
    });
  }

  /** One channel's subscriptions, in the order they were made. */
  forChannel(platform: string, channelId: string): Subscription[] {
    return [...(this.#byChannel.get(destinationKey(platform, channelId)) ?? [])];
  }

  /** Every subscription `predicate` accepts, in the order they were made (a workspace's, for its home tab). */
  where(predicate: (subscription: Subscription) => boolean): Subscription[] {
    return this.#all.filter(predicate);
  }

  paused(): Subscription[] {
    return [...this.#paused];
  }

  /** The distinct (platform, feed, reminder lead) of active subscriptions. */
  activeRoutes(): ActiveRoute[] {
    return [...this.#active.values()];
  }

  /** Active posts subscriptions with `--thread-comments`, in list order. */
  threadCommentSubscriptions(): readonly Subscription[] {
    return this.#threadComments;
  }

  /** `routeItem` over the item's candidates: the same subscriptions it would pick from the whole list. */
  route(item: FeedItem, options: RoutingOptions): Subscription[] {
    return routeItem(item, this.candidates(item), options);
  }

  /** Active subscriptions of the item's feed that may match it, in list order (routeItem keeps the first per channel). */
  candidates(item: FeedItem): Subscription[] {
    const buckets = this.#byFeed.get(item.feed);
    if (!buckets) return [];
    const found = new Set<number>(buckets.any);
    const add = (list: number[] | undefined) => {
      for (const position of list ?? []) found.add(position);
    };
    for (const ref of item.facets.postRefs) add(buckets.byPost.get(ref));
    for (const name of item.facets.usernames) add(buckets.byUser.get(name));
    for (const word of new Set(item.facets.text.split(NOT_WORD))) if (word) add(buckets.byWord.get(word));
    const all = this.#all;
    return Uint32Array.from(found)
      .sort()
      .reduce<Subscription[]>((list, position) => {
        list.push(all[position] as Subscription);
        return list;
      }, []);
  }

  #buckets(feed: FeedName): FeedBuckets {
    let buckets = this.#byFeed.get(feed);
    if (!buckets) {
      buckets = { any: [], byPost: new Map(), byUser: new Map(), byWord: new Map() };
      this.#byFeed.set(feed, buckets);
    }
    return buckets;
  }
}

/**
 * Files a subscription under one filter every matching item must carry: its post, else its
 * user, else each of its keywords when all are words (any one may be the match). Keywords with
 * other characters (c++, node.js) match as substrings, which no word lookup finds, so those
 * subscriptions go with the unfiltered ones.
 */
function file(buckets: FeedBuckets, subscription: Subscription, position: number): void {
  const { post, user, keywords } = subscription.filters;
  if (post) push(buckets.byPost, post.toLowerCase(), position);
  else if (user) push(buckets.byUser, user.toLowerCase(), position);
  else if (keywords?.length && keywords.every((k) => WORD.test(k.toLowerCase()))) {
    for (const word of new Set(keywords.map((k) => k.toLowerCase()))) push(buckets.byWord, word, position);
  } else buckets.any.push(position);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
