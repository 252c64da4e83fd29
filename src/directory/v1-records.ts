import { z } from 'zod';
import {
  compact,
  idSchema,
  isRedacted,
  optionalBool,
  optionalDay,
  optionalId,
  optionalInt,
  optionalText,
  optionalTimestamp,
  optionalUrl,
  pickImage,
  requiredText,
  requiredTimestamp,
  tolerantArray,
  tolerantObject,
} from './schema-helpers.js';
import type {
  DirectoryCollection,
  DirectoryComment,
  DirectoryLiveEvent,
  DirectoryNotification,
  DirectoryPost,
  DirectoryUser,
} from './types.js';

/**
 * zod schemas for the V1 records of spec section 2, each transforming straight into the
 * normalised domain type. Unknown fields are stripped, optional fields are best-effort.
 */

/** Spec 2.2, tolerant of redaction, `""`/null links and any shape of image map. */
export const v1UserSchema: z.ZodType<DirectoryUser> = z
  .object({
    id: idSchema,
    name: z.string().optional(),
    username: z.string().optional(),
    headline: optionalText,
    profile_url: optionalUrl,
    image_url: z.unknown().optional(),
  })
  .transform((raw, ctx): DirectoryUser => {
    if (isRedacted(raw.id, raw.name, raw.username)) return redactedUser(raw.id);
    if (!raw.name?.trim() && !raw.username?.trim()) {
      ctx.addIssue({ code: 'custom', message: 'a user needs a name or a username', path: ['name'] });
      return z.NEVER;
    }
    return compact({
      id: raw.id,
      name: raw.name?.trim() || raw.username || 'unknown',
      username: raw.username ?? '',
      headline: raw.headline,
      profileUrl: raw.profile_url,
      avatarUrl: pickImage(raw.image_url),
      redacted: false,
    });
  });

/** A redacted user carries nothing that could be shown or linked. */
export function redactedUser(id: string): DirectoryUser {
  return { id, name: 'someone', username: '', redacted: true };
}

const nestedUser = tolerantObject(v1UserSchema);

/** Topics in V1 posts are observed empty; accept strings or `{ name }` objects. */
const topicName = z.union([
  z.string().min(1),
  z.object({ name: z.string().min(1) }).transform((topic) => topic.name),
]);

/** Spec 2.5: the post nested inside a comment. */
export const v1PostSchema: z.ZodType<DirectoryPost> = z
  .object({
    id: idSchema,
    name: requiredText,
    tagline: optionalText,
    slug: optionalText,
    comments_count: optionalInt,
    votes_count: optionalInt,
    day: optionalDay,
    created_at: optionalTimestamp,
    featured_at: optionalTimestamp,
    discussion_url: optionalUrl,
    redirect_url: optionalUrl,
    thumbnail: z.unknown().optional(),
    screenshot_url: z.unknown().optional(),
    makers: tolerantArray(v1UserSchema),
    topics: tolerantArray(topicName),
    user: nestedUser,
  })
  .transform(
    (raw): DirectoryPost =>
      compact({
        id: raw.id,
        name: raw.name,
        tagline: raw.tagline,
        slug: raw.slug,
        url: raw.discussion_url ?? raw.redirect_url,
        votesCount: raw.votes_count,
        commentsCount: raw.comments_count,
        createdAt: raw.created_at,
        featuredAt: raw.featured_at,
        day: raw.day,
        thumbnailUrl: thumbnailUrl(raw.thumbnail) ?? pickImage(raw.screenshot_url),
        makers: raw.makers,
        topics: raw.topics,
        user: raw.user,
      }),
  );

function thumbnailUrl(thumbnail: unknown): string | undefined {
  if (thumbnail === null || typeof thumbnail !== 'object') return undefined;
  return optionalUrl.parse((thumbnail as Record<string, unknown>)['image_url']);
}

/** Spec 2.3. */
export const v1CollectionSchema: z.ZodType<DirectoryCollection> = z
  .object({
    id: idSchema,
    name: requiredText,
    title: optionalText,
    created_at: optionalTimestamp,
    updated_at: optionalTimestamp,
    featured_at: optionalTimestamp,
    subscriber_count: optionalInt,
    background_image_url: optionalUrl,
    collection_url: optionalUrl,
    color: optionalText,
    posts_count: optionalInt,
    user: nestedUser,
  })
  .transform(
    (raw): DirectoryCollection =>
      compact({
        id: raw.id,
        name: raw.name,
        title: raw.title,
        createdAt: raw.created_at,
        updatedAt: raw.updated_at,
        featuredAt: raw.featured_at,
        url: raw.collection_url,
        color: raw.color,
        postsCount: raw.posts_count,
        subscriberCount: raw.subscriber_count,
        backgroundImageUrl: raw.background_image_url,
        user: raw.user,
      }),
  );

/** Spec 2.4. Older comments lack `url`, `subject_*`, `sticky`, `votes` and `post`. */
export const v1CommentSchema: z.ZodType<DirectoryComment> = z
  .object({
    id: idSchema,
    body: requiredText,
    created_at: requiredTimestamp,
    parent_comment_id: optionalId,
    post_id: optionalId,
    subject_id: optionalId,
    subject_type: optionalText,
    child_comments_count: optionalInt,
    url: optionalUrl,
    sticky: optionalBool,
    votes: optionalInt,
    post: tolerantObject(v1PostSchema),
    user: nestedUser,
  })
  .transform(
    (raw): DirectoryComment =>
      compact({
        id: raw.id,
        body: raw.body,
        createdAt: raw.created_at,
        parentCommentId: raw.parent_comment_id,
        url: raw.url,
        postId: raw.post_id ?? (raw.subject_type === 'Post' ? raw.subject_id : undefined) ?? raw.post?.id,
        post: raw.post,
        user: raw.user,
        votes: raw.votes,
        sticky: raw.sticky,
        childCommentsCount: raw.child_comments_count,
      }),
  );

/** Spec 2.6. `starts_at` may be null for events without a date. */
export const v1LiveEventSchema: z.ZodType<DirectoryLiveEvent> = z
  .object({
    id: idSchema,
    name: requiredText,
    tagline: optionalText,
    starts_at: optionalTimestamp,
    ends_at: optionalTimestamp,
    subscriber_count: optionalInt,
    live_video: optionalBool,
    background_image_url: optionalUrl,
    schedule_image_url: optionalUrl,
    url: optionalUrl,
  })
  .transform(
    (raw): DirectoryLiveEvent =>
      compact({
        id: raw.id,
        name: raw.name,
        tagline: raw.tagline,
        startsAt: raw.starts_at ?? null,
        endsAt: raw.ends_at,
        url: raw.url,
        liveVideo: raw.live_video ?? false,
        subscriberCount: raw.subscriber_count,
        imageUrl: raw.schedule_image_url ?? raw.background_image_url,
      }),
  );

const firstText = (...values: unknown[]): string | undefined => {
  for (const value of values) {
    const text = optionalText.parse(value);
    if (text !== undefined) return text;
  }
  return undefined;
};

/**
 * Spec 2.7 shows no fields, so only an id is required; the text, kind, time and link are
 * taken from whichever of the usual field names the record carries.
 */
export const v1NotificationSchema: z.ZodType<DirectoryNotification> = z
  .looseObject({ id: idSchema })
  .transform((raw): DirectoryNotification => {
    const reference =
      raw['reference'] !== null && typeof raw['reference'] === 'object'
        ? (raw['reference'] as Record<string, unknown>)
        : {};
    return compact({
      id: raw.id,
      kind: firstText(raw['type'], raw['kind'], raw['notification_type'], raw['reference_type']) ?? 'unknown',
      text: firstText(raw['body'], raw['text'], raw['sentence'], raw['message'], raw['title']) ?? '',
      createdAt: optionalTimestamp.parse(raw['created_at']),
      url: optionalUrl.parse(raw['url'] ?? raw['link'] ?? raw['target_url'] ?? reference['url']),
      referenceId: optionalId.parse(raw['reference_id'] ?? reference['id']),
      referenceType: firstText(raw['reference_type'], reference['type']),
      user: nestedUser.parse(raw['user'] ?? raw['from_user'] ?? raw['actor']),
      seen: optionalBool.parse(raw['seen'] ?? raw['read']),
    });
  });

/** The V1 list envelopes: one top-level key holding an array (spec section 1). */
export const v1Envelopes = {
  collections: z.object({ collections: z.array(z.unknown()) }),
  comments: z.object({ comments: z.array(z.unknown()) }),
  live_events: z.object({ live_events: z.array(z.unknown()) }),
  notifications: z.object({ notifications: z.array(z.unknown()) }),
} as const;
