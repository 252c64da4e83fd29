/** What a channel follows: subscriptions, their filters and routing, channel zones, personal reminders. */
export {
  BACKFILL_LIMITS,
  BACKFILL_PROBLEM,
  type BackfillRequest,
  chooseBackfill,
} from './backfill.js';
export {
  CHANNEL_HISTORY_LIMIT,
  type ChangeSurface,
  type ChannelChange,
  ChannelHistory,
  channelHistoryKey,
} from './channel-history.js';
export { CHANNEL_ZONES_KEY, type ChannelZone, ChannelZoneRepository } from './channel-zones.js';
export { describePause } from './describe-pause.js';
export {
  describeFilters,
  type FeedFilters,
  feedFiltersSchema,
  filtersNotApplicable,
  matchesFilters,
  type UnmatchedFilter,
  unmatchedFilter,
} from './filters.js';
export {
  type Addressing,
  addressMessage,
  describeAddressing,
  mentionProblem,
  mentionsFor,
  parseMentions,
  parseMentionTarget,
} from './mentions.js';
export { REMINDERS_KEY, type Reminder, ReminderRepository, reminderDueAt } from './personal-reminders.js';
export { destinationKey, subscriptionDestination } from './routing.js';
export { ON_REMOVAL, type Subscription } from './subscription.js';
export type { SubscriptionIndex } from './subscription-index.js';
export { SUBSCRIPTIONS_KEY, SubscriptionRepository, USER_PAUSE_CODE } from './subscription-repository.js';
export {
  parseRoute,
  parseSubscriptionSpec,
  type SubscriptionSeed,
  WEBHOOK_NAME,
  webhookVariable,
} from './subscription-spec.js';
export { describeThreading, type ThreadSettings, threadCommentsScheduleConflict } from './thread-options.js';
export { createZoneResolver, type ResolvedZone, type ZoneResolver } from './zone-of.js';
