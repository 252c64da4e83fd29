import type { ActivitySimulator } from './activity.js';
import { type Clock, isManualClock } from './clock.js';
import { type Fault, type FaultQueue, validateFault } from './faults.js';
import type { Quotas } from './quotas.js';
import type {
  AddCollectionInput,
  AddCommentInput,
  AddNotificationInput,
  AddPostInput,
  ScheduleLiveInput,
} from './record-input.js';
import type { EmulatorStats, RequestStats } from './stats.js';
import type { Store } from './store.js';
import {
  type RenderContext,
  serializeCollection,
  serializeComment,
  serializeLiveEvent,
  serializeNotification,
  serializePost,
} from './v1-serializers.js';

/** A record as V1 renders it (plain JSON with a numeric id). */
export type V1Record = Record<string, unknown> & { id: number };

export interface RecordCounts {
  users: number;
  posts: number;
  comments: number;
  collections: number;
  featuredCollections: number;
  liveEvents: number;
  notifications: number;
  topics: number;
  /** Removed upstream by activity's churn (already subtracted from the counts above). */
  removed: { posts: number; comments: number; liveEvents: number };
}

/** Programmatic control of a running emulator; the HTTP admin API under /__admin/ mirrors it. */
export interface EmulatorAdmin {
  addComment(input?: Partial<AddCommentInput>): V1Record;
  /** The V1 post record plus `v2_id`, the same post's V2 id. */
  addPost(input?: Partial<AddPostInput>): V1Record & { v2_id: string };
  addCollection(input?: Partial<AddCollectionInput>): V1Record;
  featureCollection(id: number): V1Record;
  scheduleLive(input?: Partial<ScheduleLiveInput>): V1Record;
  addNotification(token: string, input?: Partial<AddNotificationInput>): V1Record;
  /** Adds votes to a post, as people voting upstream would. */
  addVotes(postId: number, votes: number): void;
  /** Removes a post (and its comments) upstream, as moderation would. */
  removePost(id: number): void;
  /** Removes a comment without replies upstream. */
  removeComment(id: number): void;
  /** Cancels a live event: it leaves the listing. */
  cancelLive(id: number): void;
  /** Moves a manual clock (and runs the activity simulator for that time). */
  advanceClock(ms: number): void;
  resetQuotas(): void;
  /** Runs `ms` of activity; with a manual clock the clock moves too. Returns the event count. */
  tick(ms: number): number;
  injectFault(fault: Fault): void;
  clearFaults(): void;
  pendingFaults(): Fault[];
  stats(): EmulatorStats;
  resetStats(): void;
  counts(): RecordCounts;
  latestCommentId(): number;
  latestPostId(): number;
  latestCollectionId(): number;
  latestLiveEventId(): number;
  latestNotificationId(): number;
  /** The tokens the emulator accepts. */
  tokens(): string[];
}

/** Raised when the clock cannot be moved (it is the system clock). */
export class ClockNotManualError extends Error {
  override readonly name = 'ClockNotManualError';
}

/** Wires the admin operations over the emulator's parts. */
export function createAdmin(deps: {
  store: Store;
  clock: Clock;
  quotas: Quotas;
  faults: FaultQueue;
  stats: RequestStats;
  activity: ActivitySimulator;
  tokens: readonly string[];
  /** The offset V1 records are shown in (admin answers are V1 records). */
  v1OffsetMinutes: number;
}): EmulatorAdmin {
  const { store, clock, quotas, faults, stats, activity } = deps;
  // Admin answers are rendered plainly: no quirks, no viewer.
  const ctx: RenderContext = { quirks: false, viewerId: 0, offsetMinutes: deps.v1OffsetMinutes };
  const asRecord = (value: Record<string, unknown>) => value as V1Record;
  const advance = (ms: number): number => {
    if (!isManualClock(clock)) throw new ClockNotManualError('the emulator runs on the system clock');
    // Settle activity up to now first, so events land on both sides of the jump correctly.
    const before = activity.catchUp();
    clock.advance(ms);
    return before + activity.catchUp();
  };

  return {
    addComment: (input) =>
      asRecord(serializeComment(store.addComment(input), store, ctx, { user: true, post: true })),
    addPost: (input) => {
      const post = store.addPost(input);
      return { ...asRecord(serializePost(post, store, ctx)), v2_id: String(post.id) };
    },
    addCollection: (input) => asRecord(serializeCollection(store.addCollection(input), store, ctx)),
    featureCollection: (id) => asRecord(serializeCollection(store.featureCollection(id), store, ctx)),
    scheduleLive: (input) => asRecord(serializeLiveEvent(store.scheduleLive(input), ctx)),
    addNotification: (token, input) =>
      asRecord(serializeNotification(store.addNotification(token, input), store, ctx)),
    addVotes: (postId, votes) => store.addVotes(postId, votes),
    removePost: (id) => store.deletePost(id),
    removeComment: (id) => store.deleteComment(id),
    cancelLive: (id) => store.cancelLive(id),
    advanceClock(ms) {
      advance(ms);
    },
    resetQuotas: () => quotas.reset(),
    tick(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot tick ${ms} ms`);
      if (isManualClock(clock)) return advance(ms);
      return activity.run(ms);
    },
    injectFault: (fault) => faults.add(validateFault(fault)),
    clearFaults: () => faults.clear(),
    pendingFaults: () => faults.pending(),
    stats: () => stats.snapshot(quotas),
    resetStats() {
      stats.reset();
      quotas.resetTotals();
    },
    counts: () => ({
      users: store.users.size,
      posts: store.posts.size,
      comments: store.comments.size,
      collections: store.collections.size,
      featuredCollections: [...store.collections.values()].filter((c) => c.featuredAt !== null).length,
      liveEvents: store.liveEvents.size,
      notifications: store.notifications.size,
      topics: store.topics.size,
      removed: { ...store.removed },
    }),
    latestCommentId: () => store.latestId('comment'),
    latestPostId: () => store.latestId('post'),
    latestCollectionId: () => store.latestId('collection'),
    latestLiveEventId: () => store.latestId('live'),
    latestNotificationId: () => store.latestId('notification'),
    tokens: () => [...deps.tokens],
  };
}
