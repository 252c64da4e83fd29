import { createChurn } from './churn.js';
import type { Clock } from './clock.js';
import type { Random } from './prng.js';
import type { Store } from './store.js';

/** At most this many events are made up in one catch-up, so a long idle never stalls a request. */
const MAX_EVENTS_PER_CATCH_UP = 1000;

export interface ActivitySimulator {
  /** Runs activity for the clock time elapsed since the last run. */
  catchUp(): number;
  /** Runs `ms` worth of activity without reading the clock; returns how many events happened. */
  run(ms: number): number;
}

/**
 * Makes the directory live: new comments (some replies), new posts, newly featured
 * collections, newly scheduled live events and new notifications, at `perMinute` events per
 * minute of clock time; with each, churn (churn.ts) changes votes and products and now and
 * then removes a record. It is pulled by the clock (each request catches up), so a manual
 * clock drives it without timers and the system clock drives it in real time.
 */
export function createActivitySimulator(deps: {
  store: Store;
  clock: Clock;
  random: Random;
  /** Churn's own stream (votes, products, removals), so it never changes what activity adds. */
  churnRandom: Random;
  perMinute: number;
  tokens: readonly string[];
}): ActivitySimulator {
  const { store, clock, random, perMinute, tokens } = deps;
  const churn = createChurn(store, deps.churnRandom);
  let lastRunAt = clock.now();
  let pending = 0; // fractional events carried between runs

  const event = (at: number): void => {
    const roll = random.next();
    if (roll < 0.4) {
      const latest = store.latestId('comment');
      const reply = latest > 0 && random.chance(0.3) ? store.comments.get(random.int(1, latest)) : undefined;
      if (reply) store.addComment({ parentCommentId: reply.id }, at);
      else {
        const postId = random.int(1, store.latestId('post'));
        // A post churn removed takes no comments; its comment goes to the newest post instead.
        const target = store.posts.has(postId) ? postId : [...store.posts.keys()].at(-1);
        if (target !== undefined) store.addComment({ postId: target }, at);
      }
    } else if (roll < 0.55) {
      store.addPost({}, at);
    } else if (roll < 0.7) {
      const unfeatured = [...store.collections.values()].filter((c) => c.featuredAt === null);
      const target = unfeatured.length > 0 ? random.pick(unfeatured) : store.addCollection({}, at);
      store.featureCollection(target.id);
    } else if (roll < 0.85) {
      store.scheduleLive(random.chance(0.15) ? { startsAt: null } : {});
    } else if (tokens.length > 0) {
      store.addNotification(random.pick(tokens));
    }
    churn(at);
  };

  const run = (ms: number, from: number): number => {
    if (perMinute <= 0 || ms <= 0) return 0;
    pending += (ms * perMinute) / 60_000;
    const count = Math.min(Math.floor(pending), MAX_EVENTS_PER_CATCH_UP);
    pending -= Math.floor(pending);
    for (let i = 0; i < count; i++) event(from + Math.floor(((i + 1) * ms) / count));
    return count;
  };

  return {
    catchUp() {
      const now = clock.now();
      const elapsed = now - lastRunAt;
      lastRunAt = now;
      return run(elapsed, now - elapsed);
    },
    run: (ms) => run(ms, clock.now() - ms),
  };
}
