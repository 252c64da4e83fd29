import type { Clock } from './clock.js';
import { personName, slugify } from './content.js';
import type { UserRecord } from './model.js';
import { createRandom } from './prng.js';
import { Store } from './store.js';

export interface SeedCounts {
  users: number;
  topics: number;
  posts: number;
  comments: number;
  collections: number;
  liveEvents: number;
  notificationsPerToken: number;
}

export const DEFAULT_SEED_COUNTS: SeedCounts = {
  users: 40,
  topics: 16,
  posts: 120,
  comments: 320,
  collections: 110,
  liveEvents: 110,
  notificationsPerToken: 15,
};

const DAY = 86_400_000;
/** Seeded posts on today's UTC day: more than `posts` shows by default (5). */
const POSTS_TODAY = 6;
const TOPIC_NAMES = [
  'Productivity',
  'Developer Tools',
  'Design Tools',
  'Artificial Intelligence',
  'Marketing',
  'Open Source',
  'Fintech',
  'Health & Fitness',
  'Education',
  'Remote Work',
  'Privacy',
  'Music',
  'Games',
  'Travel',
  'Writing',
  'Analytics',
];

/**
 * Builds the store for a seed. Identical seed, tokens and start instant give identical data;
 * times are laid out relative to the clock's start so "upcoming" events are upcoming.
 */
export function createSeededStore(
  seed: number,
  tokens: readonly string[],
  clock: Clock,
  counts: SeedCounts = DEFAULT_SEED_COUNTS,
): Store {
  const random = createRandom(seed);
  const store = new Store(clock, random);
  const now = clock.now();

  const userCount = Math.max(counts.users, tokens.length + 1);
  for (let id = 1; id <= userCount; id++) {
    const name = personName(random);
    const user: UserRecord = {
      id,
      createdAt: now - random.int(60, 3000) * DAY,
      name,
      username: slugify(name, id).replace(/-/g, '_'),
      // Always filled: the spec types these as strings. Quirks mode blanks them as the live service does.
      headline: `Maker at ${name.split(' ')[1] ?? 'Indie'} Labs`,
      twitterUsername: `tw_${id}`,
      websiteUrl: `https://${id}.makers.example.com/`,
      isMaker: random.chance(0.5),
    };
    store.users.set(id, user);
  }
  for (const [index, token] of tokens.entries()) store.tokenUsers.set(token, index + 1);

  for (let id = 1; id <= counts.topics; id++) {
    const name = TOPIC_NAMES[(id - 1) % TOPIC_NAMES.length] ?? `Topic ${id}`;
    store.topics.set(id, {
      id,
      name,
      slug: slugify(name, id).replace(/-\d+$/, ''),
      description: `Products about ${name.toLowerCase()}.`,
      createdAt: now - random.int(400, 3000) * DAY,
      followersCount: random.int(100, 500_000),
    });
  }

  // Posts over the last 30 days, ids increasing with time as on the live service. The newest
  // few fall on today's UTC day so far, so `posts` (today by default) has something to show in a
  // fresh sandbox at any hour; the others end a day ago. A featuring is never in the future.
  const postSpan = 30 * DAY;
  const postTimes: number[] = [];
  const todayPosts = Math.min(POSTS_TODAY, counts.posts);
  const earlierPosts = counts.posts - todayPosts;
  const todayStart = now - (now % DAY);
  for (let i = 0; i < counts.posts; i++) {
    const early = i < earlierPosts;
    // Where in its stretch of time the post falls, from 0 to 1, spread evenly with some jitter.
    const share = early
      ? (i + random.next()) / earlierPosts
      : (i - earlierPosts + random.next()) / todayPosts;
    const at = early
      ? now - postSpan + Math.floor(share * (postSpan - DAY))
      : todayStart + Math.floor(share * (now - todayStart));
    const post = store.addPost({}, at);
    if (post.featuredAt !== null && post.featuredAt > now)
      store.posts.set(post.id, { ...post, featuredAt: now });
    postTimes.push(post.createdAt);
  }

  // Comments over the last 20 days, each on a post that already existed, a third of them replies.
  const commentSpan = 20 * DAY;
  for (let i = 0; i < counts.comments; i++) {
    const at = now - commentSpan + Math.floor(((i + random.next()) / counts.comments) * commentSpan);
    const replyTo =
      i > 10 && random.chance(0.35) ? store.comments.get(random.int(1, store.comments.size)) : undefined;
    if (replyTo) {
      store.addComment({ parentCommentId: replyTo.id }, at);
    } else {
      const eligible = postTimes.filter((t) => t < at).length;
      store.addComment({ postId: random.int(1, Math.max(1, eligible)) }, at);
    }
  }

  // Collections over the last 60 days; about 40% featured some time after creation.
  const collectionSpan = 60 * DAY;
  for (let i = 0; i < counts.collections; i++) {
    const at = now - collectionSpan + Math.floor(((i + random.next()) / counts.collections) * collectionSpan);
    const collection = store.addCollection({}, at);
    if (random.chance(0.4)) {
      const featuredAt = Math.min(now - 60_000, at + random.int(1, 72) * 3_600_000);
      store.collections.set(collection.id, { ...collection, featuredAt, updatedAt: featuredAt });
    }
  }

  // Live events: past, upcoming and undated, interleaved by id.
  for (let id = 1; id <= counts.liveEvents; id++) {
    const roll = random.next();
    const startsAt =
      roll < 0.15
        ? null
        : roll < 0.55
          ? now - random.int(1, 60 * 24) * 3_600_000
          : now + random.int(1, 45 * 24) * 3_600_000;
    store.putLive(id, {}, startsAt);
  }

  for (const token of tokens) {
    for (let i = 0; i < counts.notificationsPerToken; i++) store.addNotification(token);
  }
  return store;
}
