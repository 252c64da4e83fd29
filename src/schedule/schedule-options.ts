/**
 * When a subscription's items reach its channel, as opposed to which items (filters) or how they
 * look (format): a digest instead of one message per item, quiet hours that hold messages, and
 * volume caps that fold the excess into one summary. Every time here is wall-clock time in the
 * subscription's zone (`timeZone`, else its channel's, else its workspace's, else UTC), so
 * "09:00" stays 09:00 on both sides of a DST switch.
 *
 * Stored on the subscription as `schedule`, absent when none of these is set (deliver each item
 * as soon as it is found, as before schedules existed).
 */

/** A wall-clock time of day, 00:00–23:59. */
export interface LocalTime {
  hour: number;
  minute: number;
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `--digest hourly | daily@HH:MM | weekly@ddd-HH:MM`. */
export type DigestRecurrence =
  | { every: 'hourly' }
  | { every: 'daily'; at: LocalTime }
  | { every: 'weekly'; day: Weekday; at: LocalTime };

/** `--quiet HH:MM-HH:MM`: from `from` (inclusive) to `to` (exclusive); may span midnight; never empty. */
export interface QuietHours {
  from: LocalTime;
  to: LocalTime;
}

export interface ScheduleOptions {
  /** Collect items and post them as one digest per period. */
  digest?: DigestRecurrence;
  /** `--top N`: the digest shows the period's N best items by votes (1–50); absent: every item, in order. */
  top?: number;
  /** `--digest-empty`: post a digest saying "nothing new" for an empty period. */
  digestEmpty?: boolean;
  /** Hold messages inside this window; post them (or one summary) when it ends. */
  quiet?: QuietHours;
  /** `--quiet-strict`: hold live-event reminders too (by default they are sent inside quiet hours). */
  quietStrict?: boolean;
  /** Beyond this many messages in a local clock hour, hold the rest and fold them into one summary at the hour's end. */
  maxPerHour?: number;
  /** The same per local day. */
  maxPerDay?: number;
  /** `--tz`: this subscription's IANA zone, overriding the channel's. */
  timeZone?: string;
}

/** The ranges the options accept, named in error messages and help. */
export const SCHEDULE_LIMITS = {
  top: { min: 1, max: 50 },
  maxPerHour: { min: 1, max: 1000 },
  maxPerDay: { min: 1, max: 10_000 },
  /** More than this many messages held by quiet hours are posted as one summary. */
  quietSummaryOver: 5,
  /** Items held per subscription at most (see src/held-items/held-item-store.ts). */
  heldItems: 100,
} as const;

/**
 * The zone a subscription's schedule is read in. Resolved at use, not stored on the
 * subscription, so `/directory timezone` moves every schedule of the channel at once.
 */
export type ZoneOf = (subscription: {
  platform: string;
  channelId: string;
  workspaceId?: string;
  schedule?: ScheduleOptions;
}) => Promise<string>;
