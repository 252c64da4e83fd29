/**
 * The message composer: one platform-neutral Message per directory record, composed once;
 * every chat adapter renders it. All text is plain; renderers escape it.
 */

export type { ComposeOptions, Occasion } from './build-message.js';
export { composeCollectionMessage } from './collection-message.js';
export { KIND_COLORS, resolveColor } from './colors.js';
export { composeCommentMessage } from './comment-message.js';
export type { DigestInput, DigestLayout, HeldItem } from './digest-input.js';
export { composeDigest } from './digest-message.js';
export { formatMessage } from './format-message.js';
export { composeLiveEventMessage, type LiveEventMessageOptions } from './live-event-message.js';
export { composeNotificationMessage } from './notification-message.js';
export { SOMEONE } from './people.js';
export { FALLBACK_MAX } from './plain-text.js';
export { composePostMessage } from './post-message.js';
export { composeReminderDm, type ReminderDm, type ReminderDmOptions } from './reminder-message.js';
export {
  type LiveStatus,
  liveStatus,
  markRemoved,
  type Removal,
  STARTING_SOON_MS,
} from './shown-state.js';
export { composeUserMessage } from './user-message.js';
