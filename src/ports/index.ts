/**
 * The core's public surface for adapters. `adapters/*` import from here and nowhere else in
 * `src/` (an architecture test enforces it).
 */

export {
  BotError,
  type BotErrorCode,
  ConfigError,
  configProblems,
  isBotError,
  messageOf,
} from '../errors.js';
export type {
  AdapterContext,
  AdapterHealth,
  BucketState,
  ChatAdapter,
  DeliveredItem,
  DeliveryOptions,
  DeliveryOutcome,
  DeliveryPacing,
  Destination,
  HttpHandler,
  HttpMount,
  MessageReference,
  RateLimit,
  RemovalCheck,
  RemovedWorkspace,
  WindowLimit,
  WorkspaceMembership,
  WorkspaceRemovalReason,
} from './chat-adapter.js';
export { DELETE_REFUSED } from './chat-adapter.js';
export { type Clock, sleep, systemClock } from './clock.js';
export type {
  Actor,
  CommandDefinition,
  CommandForm,
  CommandHandler,
  CommandInvocation,
  CommandOptionDefinition,
  CommandReply,
  FormField,
  FormSubmission,
  LinkPreview,
  LinkPreviewRequest,
} from './commands.js';
export { withDeadline } from './deadline.js';
export type {
  HomeAction,
  HomeActionResult,
  HomeChannel,
  HomeService,
  HomeSubscription,
  HomeView,
  HomeViewer,
  StaleHomes,
} from './home.js';
export { SLACK_INSTALLATION_KEYS, SLACK_INSTALLATION_SECRETS } from './installation-keys.js';
export { type InteractionEvent, isInteractionEvent } from './interaction-events.js';
export { stripInvisibleFormatting } from './invisible-text.js';
export type { KeyValueStore } from './key-value-store.js';
export type { LogFn, Logger } from './logger.js';
export {
  MAX_MENTIONS,
  MENTION_KINDS,
  type MentionKind,
  type MentionSupport,
  type MentionTarget,
  mentionText,
  sameMentions,
} from './mentions.js';
export {
  ENTRY_LIMITS,
  entryWeight,
  type ItemKind,
  isMessageFormat,
  MESSAGE_FORMATS,
  type Message,
  type MessageAuthor,
  type MessageEntry,
  type MessageField,
  type MessageFormat,
  type MessageLayout,
  type MessageSender,
} from './message.js';
export {
  ACTION_ID_PREFIX,
  type ActionVerb,
  type CommandAction,
  commandAction,
  type DecodedAction,
  decodeActionId,
  EXPIRED_ACTION_TEXT,
  encodeActionId,
  type LinkAction,
  type MessageAction,
} from './message-actions.js';
export type { RemindedEvent } from './reminded-event.js';
export type { OpenedSecret, SecretSealer } from './secret-sealer.js';
export { linkUrl, precut, sanitizeUrl, truncate } from './text-safety.js';
export type { ThreadOpening, ThreadProblem, ThreadTarget } from './threads.js';
export {
  header,
  isFailure,
  isSuccess,
  maskedUrl,
  outcomeOfFailure,
  outcomeOfRefusal,
  postWithoutId,
  quoted,
  type RefusalRules,
  retryAfterMs,
} from './webhook-answers.js';
export type {
  KindContext,
  WebhookClient,
  WebhookDirectory,
  WebhookEndpoint,
  WebhookFailure,
  WebhookKind,
  WebhookRequest,
  WebhookResponse,
} from './webhooks.js';
export type { Installation, WorkspaceAccess } from './workspace-access.js';
