import type { FeedName } from '../feeds/feed-names.js';
import type { MentionTarget, MessageFormat, MessageSender, ThreadProblem } from '../ports/index.js';
import type { ScheduleOptions } from '../schedule/index.js';
import type { BackfillRequest } from './backfill.js';
import type { FeedFilters } from './filters.js';
import type { ThreadSettings } from './thread-options.js';

/** What happens to a message whose item is removed upstream (`--on-removal`); mark is the default. */
export const ON_REMOVAL = ['mark', 'delete'] as const;
export type OnRemoval = (typeof ON_REMOVAL)[number];

export function isOnRemoval(value: string): value is OnRemoval {
  return (ON_REMOVAL as readonly string[]).includes(value);
}

/** One stored subscription: a route from a channel to a feed, and how its items reach it. */
export interface Subscription {
  /** Short id users type in `/directory unsubscribe <id>`. */
  id: string;
  platform: string;
  channelId: string;
  workspaceId?: string;
  feed: FeedName;
  filters: FeedFilters;
  /** How its items look (`--format`); absent = full, as stored before formats (full is never stored). */
  format?: MessageFormat;
  /** When its items are posted (digest, quiet hours, caps); absent = each item as soon as found. */
  schedule?: ScheduleOptions;
  /** How its replies thread (`--threads`, `--thread-comments`, `--broadcast`); absent = defaults. */
  threading?: ThreadSettings;
  /** Why its last reply went to the channel instead of a thread (shown by `status`). */
  threadProblem?: ThreadProblem;
  /** `--on-removal delete`: a removed item's message is deleted; absent = marked (the default). */
  onRemoval?: 'delete';
  /** Why the last removed item's message was marked rather than deleted (shown by `status`). */
  removalProblem?: ThreadProblem;
  /** `--mention`: who a delivered item pings (mentions.ts); absent = nobody. */
  mentions?: MentionTarget[];
  /** `--mention-on`: ping only for items mentioning any of these words; absent = every item. */
  mentionOn?: string[];
  /** `--webhook-name`, `--webhook-avatar`: how a webhook that can choose shows the poster. */
  sender?: MessageSender;
  /** `--backfill N` / `backfill=N` asked for and not queued yet (src/subscriptions/backfill.ts). */
  backfill?: BackfillRequest;
  /** `env` for routes seeded from SUBSCRIPTIONS, otherwise the platform user id. */
  createdBy: string;
  /** Epoch ms. Items discovered before this never reach the subscription (no history flood). */
  createdAt: number;
  /**
   * Set when the destination failed permanently, or a channel manager paused it
   * (`USER_PAUSE_CODE`, with `by`); deliveries stop until resumed.
   */
  paused?: { code: string; reason: string; at: number; by?: string };
}

/** A problem noted on a subscription for `/directory status` (see `SubscriptionRepository.noteProblem`). */
export type ProblemField = 'threadProblem' | 'removalProblem';
