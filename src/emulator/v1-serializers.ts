import type {
  CollectionRecord,
  CommentRecord,
  LiveEventRecord,
  NotificationRecord,
  PostRecord,
  UserRecord,
} from './model.js';
import type { Store } from './store.js';
import { formatV1Date, formatV1Timestamp } from './time-format.js';

/** The public web site the records link to (never the emulator itself). */
export const WEB_BASE = 'https://www.example-directory.test';
const IMAGE_BASE = 'https://images.example-directory.test';
/** Appended to collection_url and discussion_url, as the live service does for API traffic. */
const TRACKING = 'utm_campaign=directory-api&utm_medium=api&utm_source=Application%3A+emulator+%28ID%3A+1%29';

/** The 30 keys of a user's image map, in the spec's order. */
export const IMAGE_MAP_KEYS: readonly string[] = [
  ...[
    '30',
    '32',
    '40',
    '44',
    '48',
    '50',
    '60',
    '64',
    '73',
    '80',
    '88',
    '96',
    '100',
    '110',
    '120',
    '132',
    '146',
    '160',
    '176',
    '220',
    '264',
  ].map((size) => `${size}px`),
  ...['32', '40', '44', '88'].map((size) => `${size}px@2X`),
  ...['32', '40', '44', '88'].map((size) => `${size}px@3X`),
  'original',
];

/**
 * How a response is rendered: quirks mode imitates REAL-WORLD.md; the viewer is never
 * redacted; timestamps and days are shown in the service's offset.
 */
export interface RenderContext {
  quirks: boolean;
  viewerId: number;
  /** The service's UTC offset in minutes (default -480, see time-format.ts). */
  offsetMinutes: number;
}

type Json = Record<string, unknown>;

function imageMap(userId: number): Json {
  const map: Json = {};
  for (const key of IMAGE_MAP_KEYS) {
    map[key] =
      key === 'original'
        ? `${IMAGE_BASE}/avatars/${userId}/original.png`
        : `${IMAGE_BASE}/avatars/${userId}/${key.replace('@', '_')}.png?auto=format&fit=crop`;
  }
  return map;
}

/** In quirks mode, other people's data is redacted the way the live service has done since 2023. */
export function isRedacted(userId: number, ctx: Pick<RenderContext, 'quirks' | 'viewerId'>): boolean {
  return ctx.quirks && userId !== ctx.viewerId && userId % 3 !== 0;
}

/** A V1 user (spec 2.2). */
export function serializeUser(user: UserRecord, ctx: RenderContext): Json {
  if (isRedacted(user.id, ctx)) {
    return {
      id: 0,
      created_at: formatV1Timestamp(user.createdAt, ctx.offsetMinutes),
      name: '[REDACTED]',
      username: '[REDACTED]',
      headline: null,
      twitter_username: null,
      website_url: null,
      profile_url: '[REDACTED]',
      image_url: {},
    };
  }
  const record: Json = {
    id: user.id,
    created_at: formatV1Timestamp(user.createdAt, ctx.offsetMinutes),
    name: user.name,
    username: user.username,
    headline: user.headline ?? '',
    twitter_username: user.twitterUsername ?? '',
    website_url: user.websiteUrl ?? '',
    profile_url: `${WEB_BASE}/@${user.username}`,
    image_url: imageMap(user.id),
  };
  if (ctx.quirks) {
    // The three observed image-map forms and the three observed forms of optional strings.
    const variant = user.id % 4;
    if (variant === 1) record['image_url'] = { original: `${IMAGE_BASE}/avatars/${user.id}/original.png` };
    if (variant === 2) record['image_url'] = {};
    if (variant === 1) record['headline'] = null;
    if (variant === 2) delete record['twitter_username'];
    if (variant === 3) record['website_url'] = '';
  }
  return record;
}

function userOrGhost(store: Store, id: number, ctx: RenderContext): Json {
  const user = store.users.get(id);
  return user ? serializeUser(user, ctx) : serializeUser(ghostUser(id), ctx);
}

function ghostUser(id: number): UserRecord {
  return {
    id,
    createdAt: 0,
    name: 'Deleted user',
    username: `deleted_${id}`,
    headline: null,
    twitterUsername: null,
    websiteUrl: null,
    isMaker: false,
  };
}

/** A V1 post, as nested in a comment (spec 2.5). */
export function serializePost(post: PostRecord, store: Store, ctx: RenderContext): Json {
  const record: Json = {
    id: post.id,
    name: post.name,
    tagline: post.tagline,
    slug: post.slug,
    product_state: 'default',
    comments_count: store.commentCountByPost.get(post.id) ?? 0,
    votes_count: post.votesCount,
    day: formatV1Date(post.createdAt, ctx.offsetMinutes),
    category_id: post.categoryId,
    created_at: formatV1Timestamp(post.createdAt, ctx.offsetMinutes),
    current_user: {},
    discussion_url: `${WEB_BASE}/posts/${post.slug}?${TRACKING}`,
    redirect_url: post.website,
    exclusive: null,
    featured: post.featuredAt !== null,
    ios_featured_at: false,
    maker_inside: post.makerIds.length > 0,
    makers: [],
    platforms: [],
    topics: [],
    screenshot_url: {
      '300px': `${IMAGE_BASE}/screenshots/${post.id}/300.png`,
      '850px': `${IMAGE_BASE}/screenshots/${post.id}/850.png`,
    },
    thumbnail: {
      id: post.thumbnailId,
      media_type: 'image',
      image_url: `${IMAGE_BASE}/thumbnails/${post.id}.png`,
      metadata: {},
    },
    user: userOrGhost(store, post.userId, ctx),
  };
  if (ctx.quirks) {
    record['hunter'] = { id: post.userId };
    record['reviews_count'] = post.reviewsCount;
    record['badges'] = [];
    record['android_featured_at'] = null;
  }
  return record;
}

/**
 * A V1 comment (spec 2.4). `nest` says which nested objects to include: the spec drops
 * `user` under `search[user_id]` and `post` under `search[post_id]`.
 */
export function serializeComment(
  comment: CommentRecord,
  store: Store,
  ctx: RenderContext,
  nest: { user: boolean; post: boolean },
): Json {
  const post = store.posts.get(comment.postId);
  const record: Json = {
    id: comment.id,
    body: comment.body,
    created_at: formatV1Timestamp(comment.createdAt, ctx.offsetMinutes),
    parent_comment_id: comment.parentCommentId,
    user_id: comment.userId,
    subject_id: comment.postId,
    subject_type: 'Post',
    child_comments_count: store.childCountByComment.get(comment.id) ?? 0,
    url: `${WEB_BASE}/posts/${post?.slug ?? comment.postId}?comment=${comment.id}`,
    post_id: comment.postId,
    sticky: comment.sticky,
    votes: comment.votes,
  };
  if (nest.post && post) record['post'] = serializePost(post, store, ctx);
  if (nest.user) record['user'] = userOrGhost(store, comment.userId, ctx);
  if (ctx.quirks) {
    record['maker'] = post?.makerIds.includes(comment.userId) ?? false;
    record['hunter'] = post?.userId === comment.userId;
    record['live_guest'] = false;
    record['child_comments'] = [];
    // Older records predate several fields.
    if (comment.id % 5 === 0) {
      for (const key of ['url', 'subject_id', 'subject_type', 'sticky', 'votes', 'post']) delete record[key];
    }
  }
  return record;
}

/** A V1 collection (spec 2.3); `featured_at` is null for a never-featured collection. */
export function serializeCollection(collection: CollectionRecord, store: Store, ctx: RenderContext): Json {
  const owner = store.users.get(collection.userId);
  const record: Json = {
    id: collection.id,
    name: collection.name,
    title: collection.title,
    created_at: formatV1Timestamp(collection.createdAt, ctx.offsetMinutes),
    updated_at: formatV1Timestamp(collection.updatedAt, ctx.offsetMinutes),
    featured_at:
      collection.featuredAt === null ? null : formatV1Timestamp(collection.featuredAt, ctx.offsetMinutes),
    subscriber_count: collection.subscriberIds.length,
    background_image_url: collection.backgroundImageUrl,
    category_id: collection.categoryId,
    collection_url: `${WEB_BASE}/@${owner?.username ?? collection.userId}/collections/${collection.slug}?${TRACKING}`,
    color: collection.color,
    posts_count: collection.postIds.length,
    user: userOrGhost(store, collection.userId, ctx),
  };
  if (ctx.quirks) record['curated'] = collection.featuredAt !== null;
  return record;
}

/** A V1 live event (spec 2.6); undated events have null `starts_at`/`ends_at`. */
export function serializeLiveEvent(event: LiveEventRecord, ctx: RenderContext): Json {
  const record: Json = {
    id: event.id,
    name: event.name,
    tagline: event.tagline,
    starts_at: event.startsAt === null ? null : formatV1Timestamp(event.startsAt, ctx.offsetMinutes),
    ends_at: event.endsAt === null ? null : formatV1Timestamp(event.endsAt, ctx.offsetMinutes),
    subscriber_count: event.subscriberCount,
    live_video: event.liveVideo,
    guests: [],
    twitter_username: event.twitterUsername,
    category_id: event.categoryId,
    background_image_url: event.backgroundImageUrl,
    schedule_image_url: event.scheduleImageUrl,
    url: `${WEB_BASE}/live/${event.slug}`,
  };
  if (ctx.quirks && event.id % 5 === 0) {
    delete record['guests'];
    delete record['schedule_image_url'];
  }
  return record;
}

/** A V1 notification: the spec does not show its fields; this shape is the emulator's decision. */
export function serializeNotification(
  notification: NotificationRecord,
  store: Store,
  ctx: RenderContext,
): Json {
  return {
    id: notification.id,
    created_at: formatV1Timestamp(notification.createdAt, ctx.offsetMinutes),
    reference_type: notification.referenceType,
    reference_id: notification.referenceId,
    sentence: notification.sentence,
    seen: notification.seen,
    url: `${WEB_BASE}/notifications/${notification.id}`,
    from_user: notification.fromUserId === null ? null : userOrGhost(store, notification.fromUserId, ctx),
  };
}
