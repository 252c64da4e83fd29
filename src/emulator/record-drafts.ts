import type { Clock } from './clock.js';
import { bodyText, COLORS, personName, productName, slugify, taglineText } from './content.js';
import type {
  CollectionRecord,
  CommentRecord,
  LiveEventRecord,
  NotificationRecord,
  PostRecord,
  TopicRecord,
  UserRecord,
} from './model.js';
import type { Random } from './prng.js';
import {
  type AddCollectionInput,
  type AddCommentInput,
  type AddNotificationInput,
  type AddPostInput,
  type ScheduleLiveInput,
  UnknownRecordError,
} from './record-input.js';

/**
 * What drafting a record reads: the seeded randomness, the clock, and the records already
 * there (references are checked against them). Drafting never changes the store.
 */
export interface DraftScope {
  readonly random: Random;
  readonly clock: Clock;
  readonly users: ReadonlyMap<number, UserRecord>;
  readonly topics: ReadonlyMap<number, TopicRecord>;
  readonly posts: ReadonlyMap<number, PostRecord>;
  readonly comments: ReadonlyMap<number, CommentRecord>;
  readonly collections: ReadonlyMap<number, CollectionRecord>;
}

const HOUR = 3_600_000;

/*
 * Each draft fills what the input leaves out with plausible random content. The order of the
 * random draws is part of the seed data: the same seed must give the same records.
 */

function anyUserId(scope: DraftScope): number {
  return scope.random.int(1, scope.users.size);
}

function requireUser(scope: DraftScope, id: number): void {
  if (!scope.users.has(id)) throw new UnknownRecordError(`no user ${id}`);
}

/** A post; `nextMediaId` numbers its thumbnail. */
export function draftPost(
  scope: DraftScope,
  id: number,
  input: Partial<AddPostInput>,
  createdAt: number,
  nextMediaId: () => number,
): PostRecord {
  const { random } = scope;
  const userId = input.userId ?? anyUserId(scope);
  requireUser(scope, userId);
  const name = input.name ?? productName(random, id);
  const topicCount = scope.topics.size;
  return {
    id,
    name,
    tagline: input.tagline ?? taglineText(random),
    description:
      input.description !== undefined
        ? input.description
        : random.chance(0.2)
          ? null
          : `${name} helps teams ship faster.`,
    slug: slugify(name, id),
    createdAt,
    featuredAt: (input.featured ?? random.chance(0.6)) ? createdAt + random.int(0, 6) * HOUR : null,
    votesCount: input.votesCount ?? random.int(0, 1200),
    reviewsCount: random.int(0, 40),
    reviewsRating: Math.round(random.next() * 50) / 10,
    categoryId: random.chance(0.3) ? null : random.int(1, 12),
    userId,
    makerIds: random.chance(0.5) ? [userId] : [userId, anyUserId(scope)],
    topicIds:
      input.topicIds ??
      (topicCount > 0 ? [random.int(1, topicCount), random.int(1, topicCount)].filter(uniq) : []),
    website: `https://www.example-directory.test/r/p/${id}`,
    productLinks: [{ type: 'Website', url: `https://product-${id}.example.com/` }],
    media: [
      { type: 'image', url: `https://media.example-directory.test/posts/${id}/1.png`, videoUrl: null },
      ...(random.chance(0.3)
        ? [
            {
              type: 'video',
              url: `https://media.example-directory.test/posts/${id}/2.jpg`,
              videoUrl: `https://video.example.com/${id}`,
            },
          ]
        : []),
    ],
    thumbnailId: nextMediaId(),
  };
}

/** A comment, as a reply when `parentCommentId` is given (it must be on the same post). */
export function draftComment(
  scope: DraftScope,
  input: Partial<AddCommentInput>,
  createdAt: number,
  nextId: () => number,
): CommentRecord {
  const { random } = scope;
  let postId = input.postId;
  const parentId = input.parentCommentId ?? null;
  if (parentId !== null) {
    const parent = scope.comments.get(parentId);
    if (!parent) throw new UnknownRecordError(`no comment ${parentId}`);
    postId ??= parent.postId;
    if (parent.postId !== postId)
      throw new UnknownRecordError(`comment ${parentId} is not on post ${postId}`);
  }
  // Picked among the posts that exist (activity deletes some); with none deleted this is the
  // same draw as an id in 1..size, so seeded data is unchanged.
  postId ??= random.pick([...scope.posts.keys()]);
  if (!scope.posts.has(postId)) throw new UnknownRecordError(`no post ${postId}`);
  const userId = input.userId ?? anyUserId(scope);
  requireUser(scope, userId);
  const id = nextId();
  return {
    id,
    body: input.body ?? bodyText(random),
    createdAt,
    updatedAt: createdAt + (random.chance(0.2) ? random.int(1, 48) * HOUR : 0),
    parentCommentId: parentId,
    userId,
    postId,
    sticky: input.sticky ?? (parentId === null && random.chance(0.05)),
    votes: input.votes ?? random.int(0, 60),
  };
}

/** A collection, featured now when `featured` is true. */
export function draftCollection(
  scope: DraftScope,
  id: number,
  input: Partial<AddCollectionInput>,
  createdAt: number,
): CollectionRecord {
  const { random } = scope;
  const userId = input.userId ?? anyUserId(scope);
  requireUser(scope, userId);
  const name = input.name ?? `${productName(random, id).split(' ')[1]} picks ${id}`;
  for (const postId of input.postIds ?? []) {
    if (!scope.posts.has(postId)) throw new UnknownRecordError(`no post ${postId}`);
  }
  const postIds =
    input.postIds ??
    Array.from({ length: random.int(0, 8) }, () => random.int(1, Math.max(1, scope.posts.size))).filter(
      (postId, index, all) => scope.posts.has(postId) && all.indexOf(postId) === index,
    );
  return {
    id,
    name,
    title: input.title ?? `${name}: ${taglineText(random)}`,
    slug: slugify(name, id),
    description: random.chance(0.3) ? null : `Hand-picked tools: ${taglineText(random)}`,
    createdAt,
    updatedAt: createdAt,
    featuredAt: input.featured ? scope.clock.now() : null,
    subscriberIds: Array.from({ length: random.int(0, 5) }, () => anyUserId(scope)).filter(uniq),
    backgroundImageUrl: random.chance(0.3)
      ? null
      : `https://media.example-directory.test/collections/${id}.jpg`,
    categoryId: random.chance(0.5) ? null : random.int(1, 12),
    color: random.pick(COLORS),
    userId,
    postIds,
    topicIds: scope.topics.size > 0 ? [random.int(1, scope.topics.size)] : [],
  };
}

/** When a live event starts: `null` for none, the given instant, or within the next three days. */
export function draftLiveStart(scope: DraftScope, startsAt: string | null | undefined): number | null {
  if (startsAt === null) return null;
  if (startsAt === undefined) return scope.clock.now() + scope.random.int(1, 72) * HOUR;
  const parsed = Date.parse(startsAt);
  if (Number.isNaN(parsed)) throw new RangeError(`startsAt is not a date: ${startsAt}`);
  return parsed;
}

/** A live event starting at `startsAt`. */
export function draftLiveEvent(
  scope: DraftScope,
  id: number,
  input: Partial<ScheduleLiveInput>,
  startsAt: number | null,
): LiveEventRecord {
  const { random } = scope;
  const name = input.name ?? `Live with ${personName(random)}`;
  return {
    id,
    name,
    tagline: input.tagline ?? taglineText(random),
    slug: slugify(name, id),
    startsAt,
    endsAt: startsAt === null ? null : startsAt + random.int(1, 3) * HOUR,
    subscriberCount: random.int(0, 500),
    liveVideo: input.liveVideo ?? random.chance(0.5),
    twitterUsername: random.chance(0.4) ? null : `live_${id}`,
    categoryId: random.chance(0.5) ? null : random.int(1, 12),
    backgroundImageUrl: random.chance(0.4) ? null : `https://media.example-directory.test/live/${id}/bg.jpg`,
    scheduleImageUrl: random.chance(0.4)
      ? null
      : `https://media.example-directory.test/live/${id}/schedule.jpg`,
  };
}

/** An unseen notification for `toUserId`. */
export function draftNotification(
  scope: DraftScope,
  toUserId: number,
  input: Partial<AddNotificationInput>,
  nextId: () => number,
): NotificationRecord {
  const { random } = scope;
  const type = input.type ?? (random.chance(0.6) ? 'Post' : random.pick(['Comment', 'Collection', 'User']));
  const fromUserId = input.fromUserId !== undefined ? input.fromUserId : anyUserId(scope);
  if (fromUserId !== null) requireUser(scope, fromUserId);
  const referenceId = input.referenceId ?? referenceFor(scope, type);
  const id = nextId();
  return {
    id,
    toUserId,
    fromUserId,
    createdAt: scope.clock.now(),
    referenceType: type,
    referenceId,
    sentence: input.sentence ?? sentenceFor(scope, type, fromUserId, referenceId),
    seen: false,
  };
}

function referenceFor(scope: DraftScope, type: string): number {
  const pool =
    type === 'Comment'
      ? scope.comments
      : type === 'Collection'
        ? scope.collections
        : type === 'User'
          ? scope.users
          : scope.posts;
  return pool.size > 0 ? scope.random.int(1, pool.size) : 1;
}

function sentenceFor(
  scope: DraftScope,
  type: string,
  fromUserId: number | null,
  referenceId: number,
): string {
  const who = fromUserId === null ? 'Someone' : (scope.users.get(fromUserId)?.name ?? 'Someone');
  switch (type) {
    case 'Comment':
      return `${who} replied to your comment`;
    case 'Collection':
      return `${who} added your product to a collection`;
    case 'User':
      return `${who} started following you`;
    default:
      return `${who} upvoted ${scope.posts.get(referenceId)?.name ?? 'your product'}`;
  }
}

function uniq<T>(value: T, index: number, all: T[]): boolean {
  return all.indexOf(value) === index;
}
