/**
 * The directory's records as the rest of the bot sees them: one shape per kind, whether the
 * record came from V1 REST or V2 GraphQL. Ids are strings (V2 ids are strings; V1 integers are
 * stringified), timestamps are ISO 8601 UTC strings (`2025-01-02T03:04:05.000Z`).
 */

/** A person as the directory shows them. */
export interface DirectoryUser {
  id: string;
  name: string;
  username: string;
  headline?: string;
  profileUrl?: string;
  avatarUrl?: string;
  /**
   * Since 2023 other people's data is redacted (id `0`, `[REDACTED]` names, null links).
   * A redacted user is rendered "someone" and never linked.
   */
  redacted: boolean;
}

export interface DirectoryPost {
  id: string;
  name: string;
  tagline?: string;
  slug?: string;
  url?: string;
  votesCount?: number;
  commentsCount?: number;
  createdAt?: string;
  featuredAt?: string;
  /** `YYYY-MM-DD` (V1 `day`). */
  day?: string;
  thumbnailUrl?: string;
  makers: DirectoryUser[];
  /** Topic names (V2) or whatever V1 gives (usually nothing). */
  topics: string[];
  user?: DirectoryUser;
}

export interface DirectoryComment {
  id: string;
  body: string;
  createdAt: string;
  parentCommentId?: string;
  url?: string;
  postId?: string;
  post?: DirectoryPost;
  user?: DirectoryUser;
  votes?: number;
  sticky?: boolean;
  childCommentsCount?: number;
}

export interface DirectoryCollection {
  id: string;
  name: string;
  /** V1 `title`, V2 `tagline`. */
  title?: string;
  createdAt?: string;
  updatedAt?: string;
  featuredAt?: string;
  url?: string;
  color?: string;
  postsCount?: number;
  /** V1 `subscriber_count`, V2 `followersCount`. */
  subscriberCount?: number;
  /** V1 `background_image_url`, V2 `coverImage`. */
  backgroundImageUrl?: string;
  user?: DirectoryUser;
}

export interface DirectoryLiveEvent {
  id: string;
  name: string;
  tagline?: string;
  /** `null` for events without a start date (the spec's `search[date]=false`). */
  startsAt: string | null;
  endsAt?: string;
  url?: string;
  /** True for on-camera events. */
  liveVideo: boolean;
  subscriberCount?: number;
  imageUrl?: string;
}

/**
 * The spec shows no notification fields, so this is the tolerant union of what is seen:
 * an id plus whatever text, kind, time and link the record carries.
 */
export interface DirectoryNotification {
  id: string;
  /** The notification's type or kind (`Post`, `Comment`, ...); `unknown` when absent. */
  kind: string;
  /** Human-readable text (`body`, `text`, `sentence` or `message`); may be empty. */
  text: string;
  createdAt?: string;
  url?: string;
  /** Id of the object the notification is about, when given. */
  referenceId?: string;
  /** Kind of that object (`reference_type`), when given. */
  referenceType?: string;
  user?: DirectoryUser;
  seen?: boolean;
}

export interface DirectoryTopic {
  id: string;
  name: string;
  slug?: string;
  description?: string;
  url?: string;
  followersCount?: number;
  postsCount?: number;
  imageUrl?: string;
  createdAt?: string;
}

/** Relay page information of a V2 connection. */
export interface PageInfo {
  endCursor: string | null;
  hasNextPage: boolean;
}

/** A page of a V2 connection. `totalCount` is omitted: the live service reports the page size. */
export interface Connection<T> {
  nodes: T[];
  pageInfo: PageInfo;
  /** Records that failed validation and were left out (see the `record-skipped` event). */
  skipped: number;
}

/** The result of a V1 list call. */
export interface ListResult<T> {
  items: T[];
  /** Records that failed validation and were left out (see the `record-skipped` event). */
  skipped: number;
  /**
   * The service answered 304 Not Modified to our `If-None-Match`: nothing changed since the
   * previous identical request. `items` is then empty (nothing is re-parsed or re-delivered).
   */
  notModified: boolean;
}

/** A user looked up in V2, with what the schema exposes around them. */
export interface DirectoryUserProfile extends DirectoryUser {
  twitterUsername?: string;
  websiteUrl?: string;
  isMaker?: boolean;
  createdAt?: string;
  /** The first page of posts the user made. */
  madePosts: DirectoryPost[];
  /** The first page of collections the user follows. */
  followedCollections: DirectoryCollection[];
}

/** Quota classes of the directory (spec section 8). */
export type QuotaClass = 'v1' | 'v2-requests' | 'v2-complexity';

/** Interactive lookups may spend the reserve; background polling may not. */
export type Priority = 'background' | 'interactive';

/** Options every client method accepts as its last argument. */
export interface CallOptions {
  priority?: Priority;
  signal?: AbortSignal;
}
