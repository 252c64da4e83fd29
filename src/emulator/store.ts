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

export interface AddCommentInput {
  postId: number;
  parentCommentId: number | null;
  userId: number;
  body: string;
  sticky: boolean;
  votes: number;
}

export interface AddPostInput {
  name: string;
  tagline: string;
  votesCount: number;
  featured: boolean;
  userId: number;
  topicIds: number[];
  description: string | null;
}

export interface AddCollectionInput {
  name: string;
  title: string;
  featured: boolean;
  userId: number;
  postIds: number[];
}

export interface ScheduleLiveInput {
  name: string;
  tagline: string;
  /** ISO 8601; null schedules an event without a date. Default: within the next three days. */
  startsAt: string | null;
  liveVideo: boolean;
}

export interface AddNotificationInput {
  type: string;
  referenceId: number;
  sentence: string;
  fromUserId: number | null;
}

/** Raised for admin input that names a record which does not exist. */
export class UnknownRecordError extends Error {
  override readonly name = 'UnknownRecordError';
}

const HOUR = 3_600_000;

/**
 * All emulator data and the only way to change it. Every mutation bumps `version`, which
 * keys the response cache and makes ETags change exactly when content changes.
 */
export class Store {
  readonly users = new Map<number, UserRecord>();
  readonly topics = new Map<number, TopicRecord>();
  readonly posts = new Map<number, PostRecord>();
  readonly comments = new Map<number, CommentRecord>();
  readonly collections = new Map<number, CollectionRecord>();
  readonly liveEvents = new Map<number, LiveEventRecord>();
  readonly notifications = new Map<number, NotificationRecord>();
  /** token → the user it acts as (each application has its own user). */
  readonly tokenUsers = new Map<string, number>();
  readonly commentCountByPost = new Map<number, number>();
  readonly childCountByComment = new Map<number, number>();
  version = 0;
  private readonly nextIds = { post: 1, comment: 1, collection: 1, live: 1, notification: 1, media: 1 };

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /** The user a token acts as; undefined for an unknown token. */
  viewerId(token: string): number | undefined {
    return this.tokenUsers.get(token);
  }

  private touch(): void {
    this.version += 1;
  }

  private anyUserId(): number {
    return this.random.int(1, this.users.size);
  }

  private requireUser(id: number): void {
    if (!this.users.has(id)) throw new UnknownRecordError(`no user ${id}`);
  }

  /** Adds a post; ids are shared by V1 (nested in comments) and V2. */
  addPost(input: Partial<AddPostInput> = {}, createdAt = this.clock.now()): PostRecord {
    const id = this.nextIds.post++;
    const userId = input.userId ?? this.anyUserId();
    this.requireUser(userId);
    const name = input.name ?? productName(this.random, id);
    const topicCount = this.topics.size;
    const post: PostRecord = {
      id,
      name,
      tagline: input.tagline ?? taglineText(this.random),
      description:
        input.description !== undefined
          ? input.description
          : this.random.chance(0.2)
            ? null
            : `${name} helps teams ship faster.`,
      slug: slugify(name, id),
      createdAt,
      featuredAt:
        (input.featured ?? this.random.chance(0.6)) ? createdAt + this.random.int(0, 6) * HOUR : null,
      votesCount: input.votesCount ?? this.random.int(0, 1200),
      reviewsCount: this.random.int(0, 40),
      reviewsRating: Math.round(this.random.next() * 50) / 10,
      categoryId: this.random.chance(0.3) ? null : this.random.int(1, 12),
      userId,
      makerIds: this.random.chance(0.5) ? [userId] : [userId, this.anyUserId()],
      topicIds:
        input.topicIds ??
        (topicCount > 0 ? [this.random.int(1, topicCount), this.random.int(1, topicCount)].filter(uniq) : []),
      website: `https://www.example-directory.test/r/p/${id}`,
      productLinks: [{ type: 'Website', url: `https://product-${id}.example.com/` }],
      media: [
        { type: 'image', url: `https://media.example-directory.test/posts/${id}/1.png`, videoUrl: null },
        ...(this.random.chance(0.3)
          ? [
              {
                type: 'video',
                url: `https://media.example-directory.test/posts/${id}/2.jpg`,
                videoUrl: `https://video.example.com/${id}`,
              },
            ]
          : []),
      ],
      thumbnailId: this.nextIds.media++,
    };
    this.posts.set(id, post);
    this.commentCountByPost.set(id, 0);
    this.touch();
    return post;
  }

  /** Adds a comment, as a reply when `parentCommentId` is given (it must be on the same post). */
  addComment(input: Partial<AddCommentInput> = {}, createdAt = this.clock.now()): CommentRecord {
    let postId = input.postId;
    const parentId = input.parentCommentId ?? null;
    if (parentId !== null) {
      const parent = this.comments.get(parentId);
      if (!parent) throw new UnknownRecordError(`no comment ${parentId}`);
      postId ??= parent.postId;
      if (parent.postId !== postId)
        throw new UnknownRecordError(`comment ${parentId} is not on post ${postId}`);
    }
    postId ??= this.random.int(1, this.posts.size);
    if (!this.posts.has(postId)) throw new UnknownRecordError(`no post ${postId}`);
    const userId = input.userId ?? this.anyUserId();
    this.requireUser(userId);
    const id = this.nextIds.comment++;
    const comment: CommentRecord = {
      id,
      body: input.body ?? bodyText(this.random),
      createdAt,
      updatedAt: createdAt + (this.random.chance(0.2) ? this.random.int(1, 48) * HOUR : 0),
      parentCommentId: parentId,
      userId,
      postId,
      sticky: input.sticky ?? (parentId === null && this.random.chance(0.05)),
      votes: input.votes ?? this.random.int(0, 60),
    };
    this.comments.set(id, comment);
    this.commentCountByPost.set(postId, (this.commentCountByPost.get(postId) ?? 0) + 1);
    if (parentId !== null) {
      this.childCountByComment.set(parentId, (this.childCountByComment.get(parentId) ?? 0) + 1);
    }
    this.touch();
    return comment;
  }

  /** Adds a collection, featured now when `featured` is true. */
  addCollection(input: Partial<AddCollectionInput> = {}, createdAt = this.clock.now()): CollectionRecord {
    const id = this.nextIds.collection++;
    const userId = input.userId ?? this.anyUserId();
    this.requireUser(userId);
    const name = input.name ?? `${productName(this.random, id).split(' ')[1]} picks ${id}`;
    for (const postId of input.postIds ?? []) {
      if (!this.posts.has(postId)) throw new UnknownRecordError(`no post ${postId}`);
    }
    const postIds =
      input.postIds ??
      Array.from({ length: this.random.int(0, 8) }, () =>
        this.random.int(1, Math.max(1, this.posts.size)),
      ).filter((postId, index, all) => this.posts.has(postId) && all.indexOf(postId) === index);
    const collection: CollectionRecord = {
      id,
      name,
      title: input.title ?? `${name}: ${taglineText(this.random)}`,
      slug: slugify(name, id),
      description: this.random.chance(0.3) ? null : `Hand-picked tools: ${taglineText(this.random)}`,
      createdAt,
      updatedAt: createdAt,
      featuredAt: input.featured ? this.clock.now() : null,
      subscriberIds: Array.from({ length: this.random.int(0, 5) }, () => this.anyUserId()).filter(uniq),
      backgroundImageUrl: this.random.chance(0.3)
        ? null
        : `https://media.example-directory.test/collections/${id}.jpg`,
      categoryId: this.random.chance(0.5) ? null : this.random.int(1, 12),
      color: this.random.pick(COLORS),
      userId,
      postIds,
      topicIds: this.topics.size > 0 ? [this.random.int(1, this.topics.size)] : [],
    };
    this.collections.set(id, collection);
    this.touch();
    return collection;
  }

  /** Marks a collection featured now (again, if it already was). */
  featureCollection(id: number): CollectionRecord {
    const collection = this.collections.get(id);
    if (!collection) throw new UnknownRecordError(`no collection ${id}`);
    const now = this.clock.now();
    const updated: CollectionRecord = { ...collection, featuredAt: now, updatedAt: now };
    this.collections.set(id, updated);
    this.touch();
    return updated;
  }

  /** Schedules a live event; `startsAt: null` leaves it without a date. */
  scheduleLive(input: Partial<ScheduleLiveInput> = {}): LiveEventRecord {
    const id = this.nextIds.live++;
    let startsAt: number | null;
    if (input.startsAt === null) startsAt = null;
    else if (input.startsAt === undefined) startsAt = this.clock.now() + this.random.int(1, 72) * HOUR;
    else {
      startsAt = Date.parse(input.startsAt);
      if (Number.isNaN(startsAt)) throw new RangeError(`startsAt is not a date: ${input.startsAt}`);
    }
    return this.putLive(id, input, startsAt);
  }

  /** Seeds a live event at an explicit instant (the seed data uses past ones too). */
  putLive(id: number, input: Partial<ScheduleLiveInput>, startsAt: number | null): LiveEventRecord {
    this.nextIds.live = Math.max(this.nextIds.live, id + 1);
    const name = input.name ?? `Live with ${personName(this.random)}`;
    const event: LiveEventRecord = {
      id,
      name,
      tagline: input.tagline ?? taglineText(this.random),
      slug: slugify(name, id),
      startsAt,
      endsAt: startsAt === null ? null : startsAt + this.random.int(1, 3) * HOUR,
      subscriberCount: this.random.int(0, 500),
      liveVideo: input.liveVideo ?? this.random.chance(0.5),
      twitterUsername: this.random.chance(0.4) ? null : `live_${id}`,
      categoryId: this.random.chance(0.5) ? null : this.random.int(1, 12),
      backgroundImageUrl: this.random.chance(0.4)
        ? null
        : `https://media.example-directory.test/live/${id}/bg.jpg`,
      scheduleImageUrl: this.random.chance(0.4)
        ? null
        : `https://media.example-directory.test/live/${id}/schedule.jpg`,
    };
    this.liveEvents.set(id, event);
    this.touch();
    return event;
  }

  /** Adds an unseen notification for the user a token acts as. */
  addNotification(token: string, input: Partial<AddNotificationInput> = {}): NotificationRecord {
    const toUserId = this.tokenUsers.get(token);
    if (toUserId === undefined) throw new UnknownRecordError('no such token');
    const type =
      input.type ?? (this.random.chance(0.6) ? 'Post' : this.random.pick(['Comment', 'Collection', 'User']));
    const fromUserId = input.fromUserId !== undefined ? input.fromUserId : this.anyUserId();
    if (fromUserId !== null) this.requireUser(fromUserId);
    const referenceId = input.referenceId ?? this.referenceFor(type);
    const id = this.nextIds.notification++;
    const notification: NotificationRecord = {
      id,
      toUserId,
      fromUserId,
      createdAt: this.clock.now(),
      referenceType: type,
      referenceId,
      sentence: input.sentence ?? this.sentenceFor(type, fromUserId, referenceId),
      seen: false,
    };
    this.notifications.set(id, notification);
    this.touch();
    return notification;
  }

  /** Marks every notification of a user seen (DELETE /v1/notifications). */
  clearNotifications(userId: number): void {
    for (const [id, notification] of this.notifications) {
      if (notification.toUserId === userId && !notification.seen) {
        this.notifications.set(id, { ...notification, seen: true });
      }
    }
    this.touch();
  }

  /** Newest id of a record kind (0 when there is none). */
  latestId(kind: 'post' | 'comment' | 'collection' | 'live' | 'notification'): number {
    return this.nextIds[kind] - 1;
  }

  private referenceFor(type: string): number {
    const pool =
      type === 'Comment'
        ? this.comments
        : type === 'Collection'
          ? this.collections
          : type === 'User'
            ? this.users
            : this.posts;
    return pool.size > 0 ? this.random.int(1, pool.size) : 1;
  }

  private sentenceFor(type: string, fromUserId: number | null, referenceId: number): string {
    const who = fromUserId === null ? 'Someone' : (this.users.get(fromUserId)?.name ?? 'Someone');
    switch (type) {
      case 'Comment':
        return `${who} replied to your comment`;
      case 'Collection':
        return `${who} added your product to a collection`;
      case 'User':
        return `${who} started following you`;
      default:
        return `${who} upvoted ${this.posts.get(referenceId)?.name ?? 'your product'}`;
    }
  }
}

function uniq<T>(value: T, index: number, all: T[]): boolean {
  return all.indexOf(value) === index;
}
