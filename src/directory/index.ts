/**
 * The directory client: typed, quota-aware access to the Content Directory Service's V1 REST
 * and V2 GraphQL interfaces, returning normalised records.
 */
export {
  createDirectoryClient,
  DEFAULT_USER_AGENT,
  type DirectoryClient,
  type DirectoryClientOptions,
} from './client.js';
export type { DirectoryClientEvent, DirectoryEventSink } from './events.js';
export { DEFAULT_RETRY, DEFAULT_TIMEOUTS, type RetryPolicy, type Timeouts } from './http-transport.js';
export { liveNewerDay, startsFrom, whollyBefore } from './live-listing-day.js';
export { DEFAULT_CONNECTION_SIZE, estimateQueryComplexity } from './query-complexity.js';
export {
  createQuotaLedger,
  QUOTA_CLASSES,
  type QuotaCheck,
  type QuotaLedger,
  type QuotaLedgerOptions,
  type QuotaSnapshot,
  type RateLimitHeaders,
  SPEC_DEFAULT_LIMITS,
  SPEC_WINDOW_MS,
} from './quota-ledger.js';
export type {
  CallOptions,
  Connection,
  DirectoryCollection,
  DirectoryComment,
  DirectoryLiveEvent,
  DirectoryNotification,
  DirectoryPost,
  DirectoryTopic,
  DirectoryUser,
  DirectoryUserProfile,
  ListResult,
  PageInfo,
  Priority,
  QuotaClass,
} from './types.js';
export {
  v1CollectionSchema,
  v1CommentSchema,
  v1LiveEventSchema,
  v1NotificationSchema,
  v1PostSchema,
  v1UserSchema,
} from './v1-records.js';
export type {
  ListCollectionsParams,
  ListCommentsParams,
  ListLiveEventsParams,
  ListNotificationsParams,
  SortBy,
} from './v1-resources.js';
export { POSTS_QUERY, RANKED_POST_IDS_QUERY } from './v2-queries.js';
export {
  v2CollectionSchema,
  v2CommentSchema,
  v2PostSchema,
  v2TopicSchema,
  v2UserProfileSchema,
  v2UserSchema,
} from './v2-records.js';
export type {
  CollectionsOrder,
  IdOrSlug,
  ListCollectionsV2Params,
  ListPostsParams,
  ListTopicsParams,
  PostsOrder,
  TopicsOrder,
  UserRef,
} from './v2-resources.js';
export {
  type LinkTarget,
  linkTarget,
  parsePostRef,
  postLink,
  SLUG_PATTERN,
  USERNAME_PATTERN,
  unwrapChatLink,
} from './web-links.js';
