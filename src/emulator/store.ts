import type { Clock } from './clock.js';
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
  type DraftScope,
  draftCollection,
  draftComment,
  draftLiveEvent,
  draftLiveStart,
  draftNotification,
  draftPost,
} from './record-drafts.js';
import {
  type AddCollectionInput,
  type AddCommentInput,
  type AddNotificationInput,
  type AddPostInput,
  type ScheduleLiveInput,
  UnknownRecordError,
} from './record-input.js';

/**
 * All emulator data and the only way to change it. Every mutation bumps `version`, which
 * keys the response cache and makes ETags change exactly when content changes. What a new
 * record holds beyond its input is drafted in record-drafts.ts.
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
  /** When each live event was scheduled (its record has no such field). */
  readonly liveScheduledAt = new Map<number, number>();
  version = 0;
  /** Records removed upstream so far (churn), so counts of what was created stay knowable. */
  readonly removed = { posts: 0, comments: 0, liveEvents: 0 };
  private readonly nextIds = { post: 1, comment: 1, collection: 1, live: 1, notification: 1, media: 1 };
  private readonly scope: DraftScope;

  constructor(
    private readonly clock: Clock,
    random: Random,
  ) {
    this.scope = {
      random,
      clock,
      users: this.users,
      topics: this.topics,
      posts: this.posts,
      comments: this.comments,
      collections: this.collections,
    };
  }

  /** The user a token acts as; undefined for an unknown token. */
  viewerId(token: string): number | undefined {
    return this.tokenUsers.get(token);
  }

  private touch(): void {
    this.version += 1;
  }

  /** Adds a post; ids are shared by V1 (nested in comments) and V2. */
  addPost(input: Partial<AddPostInput> = {}, createdAt = this.clock.now()): PostRecord {
    const id = this.nextIds.post++;
    const post = draftPost(this.scope, id, input, createdAt, () => this.nextIds.media++);
    this.posts.set(id, post);
    this.commentCountByPost.set(id, 0);
    this.touch();
    return post;
  }

  /** Adds a comment, as a reply when `parentCommentId` is given (it must be on the same post). */
  addComment(input: Partial<AddCommentInput> = {}, createdAt = this.clock.now()): CommentRecord {
    const comment = draftComment(this.scope, input, createdAt, () => this.nextIds.comment++);
    const { id, postId, parentCommentId: parentId } = comment;
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
    const collection = draftCollection(this.scope, id, input, createdAt);
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
    return this.putLive(id, input, draftLiveStart(this.scope, input.startsAt));
  }

  /** Seeds a live event at an explicit instant (the seed data uses past ones too). */
  putLive(id: number, input: Partial<ScheduleLiveInput>, startsAt: number | null): LiveEventRecord {
    this.nextIds.live = Math.max(this.nextIds.live, id + 1);
    const event = draftLiveEvent(this.scope, id, input, startsAt);
    this.liveEvents.set(id, event);
    this.liveScheduledAt.set(id, this.clock.now());
    this.touch();
    return event;
  }

  /** Adds an unseen notification for the user a token acts as. */
  addNotification(token: string, input: Partial<AddNotificationInput> = {}): NotificationRecord {
    const toUserId = this.tokenUsers.get(token);
    if (toUserId === undefined) throw new UnknownRecordError('no such token');
    const notification = draftNotification(this.scope, toUserId, input, () => this.nextIds.notification++);
    this.notifications.set(notification.id, notification);
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

  /** Adds votes to a post (activity's vote churn). */
  addVotes(postId: number, votes: number): void {
    const post = this.posts.get(postId);
    if (!post) throw new UnknownRecordError(`no post ${postId}`);
    this.posts.set(postId, { ...post, votesCount: post.votesCount + votes });
    this.touch();
  }

  /** Adds a post to a collection's products (its product count grows). */
  addToCollection(collectionId: number, postId: number): void {
    const collection = this.collections.get(collectionId);
    if (!collection) throw new UnknownRecordError(`no collection ${collectionId}`);
    if (collection.postIds.includes(postId)) return;
    const updatedAt = this.clock.now();
    this.collections.set(collectionId, {
      ...collection,
      postIds: [...collection.postIds, postId],
      updatedAt,
    });
    this.touch();
  }

  /**
   * Removes a post upstream (moderation): it and its comments are gone from both APIs, and
   * collections no longer list it.
   */
  deletePost(postId: number): void {
    if (!this.posts.delete(postId)) throw new UnknownRecordError(`no post ${postId}`);
    this.removed.posts += 1;
    this.commentCountByPost.delete(postId);
    for (const [id, comment] of this.comments) {
      if (comment.postId === postId) {
        this.comments.delete(id);
        this.removed.comments += 1;
        this.childCountByComment.delete(id);
      }
    }
    for (const [id, collection] of this.collections) {
      if (collection.postIds.includes(postId)) {
        this.collections.set(id, { ...collection, postIds: collection.postIds.filter((p) => p !== postId) });
      }
    }
    this.touch();
  }

  /** Removes a comment that has no replies (a thread's parent stays so its replies keep a place). */
  deleteComment(commentId: number): void {
    const comment = this.comments.get(commentId);
    if (!comment) throw new UnknownRecordError(`no comment ${commentId}`);
    if ((this.childCountByComment.get(commentId) ?? 0) > 0) {
      throw new UnknownRecordError(`comment ${commentId} has replies`);
    }
    this.comments.delete(commentId);
    this.removed.comments += 1;
    this.commentCountByPost.set(
      comment.postId,
      Math.max(0, (this.commentCountByPost.get(comment.postId) ?? 1) - 1),
    );
    const parent = comment.parentCommentId;
    if (parent !== null) {
      this.childCountByComment.set(parent, Math.max(0, (this.childCountByComment.get(parent) ?? 1) - 1));
    }
    this.touch();
  }

  /** Cancels a live event: it disappears from the listing. */
  cancelLive(eventId: number): void {
    if (!this.liveEvents.delete(eventId)) throw new UnknownRecordError(`no live event ${eventId}`);
    this.removed.liveEvents += 1;
    this.touch();
  }

  /** Newest id of a record kind (0 when there is none). */
  latestId(kind: 'post' | 'comment' | 'collection' | 'live' | 'notification'): number {
    return this.nextIds[kind] - 1;
  }
}
