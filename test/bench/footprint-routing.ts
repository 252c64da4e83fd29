/**
 * The footprint benchmark's subscriptions and the items it routes through them. Every channel
 * holds ten subscriptions (five posts it follows, an author on comments and on posts, two
 * keywords, a live reminder, and one unfiltered feed), and every post, author and keyword is
 * followed by `FOLLOWERS` channels. Routing an item then matches the same number of
 * subscriptions at any scale, so time per item measures the lookup, not a growing fan-out.
 */
import { performance } from 'node:perf_hooks';
import type { FeedItem } from '../../src/feeds/feed-item.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import { routeItem } from '../../src/subscriptions/routing.js';
import type { Subscription } from '../../src/subscriptions/subscription.js';
import type { SubscriptionIndex } from '../../src/subscriptions/subscription-index.js';
import type { SubscriptionSeed } from '../../src/subscriptions/subscription-spec.js';
import { percentile, round, seededRandom } from './support.js';

export const SUBSCRIPTIONS_PER_CHANNEL = 10;
/** Channels following one post, author or keyword. */
const FOLLOWERS = 20;
/** Channels that take every comment: a fixed few, so that fan-out does not grow with the run. */
const EVERY_COMMENT_CHANNELS = 5;

/** Destination of channel `c`: even ones Slack, odd ones Discord. */
export function channelOf(c: number): { platform: 'slack' | 'discord'; channelId: string } {
  return c % 2 === 0
    ? { platform: 'slack', channelId: `C${String(1_000_000 + c)}` }
    : { platform: 'discord', channelId: String(300_000_000_000_000_000n + BigInt(c)) };
}

/** The subscriptions of channels [from, to). */
export function seedsFor(from: number, to: number): SubscriptionSeed[] {
  const seeds: SubscriptionSeed[] = [];
  for (let c = from; c < to; c += 1) {
    const where = channelOf(c);
    const group = Math.floor(c / FOLLOWERS);
    for (let t = 0; t < 5; t += 1)
      seeds.push({ ...where, feed: 'comments', filters: { post: `p${group}x${t}` } });
    seeds.push({ ...where, feed: 'comments', filters: { user: `u${group}` } });
    seeds.push({ ...where, feed: 'posts', filters: { user: `u${group}` } });
    seeds.push({ ...where, feed: 'comments', filters: { keywords: [`w${group}a`, `w${group}b`] } });
    seeds.push({ ...where, feed: 'live', filters: { remindMinutes: 10 } });
    const everything =
      c < EVERY_COMMENT_CHANNELS ? 'comments' : c % 2 === 0 ? 'collections' : 'notifications';
    seeds.push({ ...where, feed: everything, filters: {} });
  }
  return seeds;
}

/** Comments on posts, by authors and with words some of the first `channels` channels follow. */
export function commentsFor(channels: number, count: number, seed = 1): FeedItem[] {
  const random = seededRandom(seed);
  const groups = Math.max(1, Math.floor(channels / FOLLOWERS));
  const pick = () => Math.floor(random() * groups);
  return Array.from({ length: count }, (_, i) => {
    const post = `p${pick()}x${Math.floor(random() * 5)}`;
    const username = `u${pick()}`;
    return makeFeedItem(
      'comments',
      'new',
      {
        type: 'comment',
        comment: {
          id: String(i),
          body: `Trying this out, w${pick()}a looks right`,
          createdAt: '2026-01-01T00:00:00Z',
          user: { id: String(i), name: username, username, redacted: false },
          postId: post,
          post: { id: post, name: 'A launch', slug: post, makers: [], topics: [] },
        },
      },
      Date.now() + 60_000,
    );
  });
}

export interface RoutingTiming {
  subscriptions: number;
  /** Mean time to route one item through the index, µs. */
  indexedMicros: number;
  /** The same items through `routeItem` over the whole list (what routing was before the index), µs. */
  linearMicros: number;
  /** Mean subscriptions an item was routed to (the same at every scale by construction). */
  matchedPerItem: number;
  /** Reading the stored list and building the index, ms (once per change of the subscriptions). */
  indexBuildMs: number;
}

const ROUTING = { now: 0, defaultRemindMinutes: 15 };
const ROUTING_TRIALS = 9;

/** Routes `items` through `index` (repeated until ~`budgetMs` spent) and through the whole list. */
export function timeRouting(
  index: SubscriptionIndex,
  all: readonly Subscription[],
  items: readonly FeedItem[],
  indexBuildMs: number,
): RoutingTiming {
  let matched = 0;
  for (const item of items) matched += index.route(item, ROUTING).length;
  // The median of several trials, each long enough to outlast a timer tick: a single run of
  // tens of µs per item moved by a third with whatever else the machine did.
  const trials: number[] = [];
  for (let trial = 0; trial < ROUTING_TRIALS; trial += 1) {
    let rounds = 0;
    const started = performance.now();
    while (rounds < 5 || performance.now() - started < 100) {
      for (const item of items) index.route(item, ROUTING);
      rounds += 1;
    }
    trials.push(((performance.now() - started) * 1000) / (rounds * items.length));
  }
  const indexedMicros = percentile(trials, 50);
  const sample = items.slice(0, 50);
  const linearStarted = performance.now();
  for (const item of sample) routeItem(item, all, ROUTING);
  const linearMicros = ((performance.now() - linearStarted) * 1000) / sample.length;
  return {
    subscriptions: index.size,
    indexedMicros: round(indexedMicros, 1),
    linearMicros: round(linearMicros, 1),
    matchedPerItem: round(matched / items.length, 1),
    indexBuildMs: round(indexBuildMs, 1),
  };
}
