import type { DirectoryPost } from '../directory/index.js';
import { UsageError } from '../errors.js';
import { emptyHeldState, holdItems } from '../held-items/index.js';
import type { DigestInput, HeldItem } from '../messages/index.js';
import { composeDigest } from '../messages/index.js';
import type { Message } from '../ports/index.js';
import type { DigestRecurrence } from '../schedule/index.js';
import { buildSchedule, latestDigestAt, nextDigestAt, type ScheduleInput } from '../schedule/index.js';
import type { RecordKind } from './raw-record.js';

/** `render --digest SPEC [--top N] [--tz ZONE]` as typed. */
export interface DigestFlags {
  digest?: string | undefined;
  top?: string | undefined;
  tz?: string | undefined;
}

/** What `render` previews a digest with: a subscription's digest options, checked. */
export interface DigestPlan {
  recurrence: DigestRecurrence;
  top?: number;
  zone: string;
}

/** One record, composed and formatted as a subscription would hold it. */
export interface ComposedRecord {
  kind: RecordKind;
  message: Message;
  /** When the record happened: its message's time before formatting (`title` leaves it off). */
  timestamp: string | undefined;
  /** The directory client's typed record (see composeRawRecord). */
  parsed: unknown;
}

/** The feed a record of each kind arrives in; a user profile is in none. */
const FEED_OF_KIND: Readonly<Record<RecordKind, string | undefined>> = {
  post: 'posts',
  comment: 'comments',
  collection: 'collections',
  live: 'live',
  notification: 'notifications',
  user: undefined,
};

/**
 * Checks the options with the parser `/directory subscribe` uses, so a mistake reads the same in
 * both. `feed` decides whether `--top` applies; undefined when no digest option was given.
 */
export function checkDigestFlags(flags: DigestFlags, feed: string): DigestPlan | undefined {
  const input: ScheduleInput = {};
  if (flags.digest !== undefined) input.digest = flags.digest;
  if (flags.top !== undefined) input.top = flags.top;
  if (flags.tz !== undefined) input.tz = flags.tz;
  const checked = buildSchedule(input, feed);
  if (!checked.ok) throw new UsageError(checked.problem);
  const digest = checked.schedule?.digest;
  if (digest === undefined) return undefined;
  const { top, timeZone } = checked.schedule ?? {};
  // Without --tz the bot reads a schedule in UTC unless the channel or workspace names a zone.
  return { recurrence: digest, ...(top === undefined ? {} : { top }), zone: timeZone ?? 'UTC' };
}

/** The feed `--kind` names, to check `--top` before reading anything; posts when it names none. */
export function feedOfKind(kind: RecordKind | undefined): string {
  return (kind === undefined ? undefined : FEED_OF_KIND[kind]) ?? 'posts';
}

function feedOfRecords(records: readonly ComposedRecord[]): string {
  const kinds = [...new Set(records.map((record) => record.kind))];
  if (kinds.includes('user'))
    throw new UsageError('A digest collects the items of one feed, and user records belong to no feed.');
  const feeds = kinds.map((kind) => FEED_OF_KIND[kind] as string);
  if (feeds.length > 1)
    throw new UsageError(
      `A digest collects the items of one feed, but these records are ${feeds.join(' and ')}: give the records of one feed.`,
    );
  return feeds[0] as string;
}

/**
 * When the bot would have found a record: when it happened, as its message says (never later
 * than now). A live event's time is when it starts, not when it was announced, so it counts as
 * found now, like a record without a time.
 */
function foundAt(record: ComposedRecord, now: number): number {
  const at = record.kind === 'live' ? Number.NaN : Date.parse(record.timestamp ?? '');
  return Number.isFinite(at) ? Math.min(at, now) : now;
}

function heldItem(feed: string, record: ComposedRecord, now: number): HeldItem {
  const id = (record.parsed as { id?: unknown }).id;
  const post = record.kind === 'post' ? (record.parsed as DirectoryPost) : undefined;
  return {
    itemKey: `${feed}:${String(id)}`,
    feed,
    message: record.message,
    discoveredAt: foundAt(record, now),
    reason: 'digest',
    ...(post?.votesCount === undefined ? {} : { votes: post.votesCount }),
    ...(post?.commentsCount === undefined ? {} : { comments: post.commentsCount }),
  };
}

/**
 * The digest a subscription with `plan` would post holding these records: held as the bot holds
 * them (one per record, at most 100, the rest counted), posted at the first slot after the newest
 * of them, for the period since the slot before (or since the oldest record, if earlier). Every
 * part, in posting order. The records must all be of one feed.
 */
export function previewDigest(
  flags: DigestFlags,
  records: readonly ComposedRecord[],
  now: number,
): Message[] {
  const feed = feedOfRecords(records);
  const plan = checkDigestFlags(flags, feed);
  if (plan === undefined) throw new UsageError('--digest is required to preview a digest.');
  const items = records.map((record) => heldItem(feed, record, now));
  const state = emptyHeldState();
  holdItems(state, items, plan.top !== undefined);
  const times = items.map((item) => item.discoveredAt);
  const to = nextDigestAt(plan.recurrence, plan.zone, Math.max(...times));
  const from = Math.min(latestDigestAt(plan.recurrence, plan.zone, to - 1), ...times);
  const omitted = state.omitted.digest ?? 0;
  const input: DigestInput = {
    kind: 'digest',
    feed,
    items: state.items,
    period: { from, to },
    zone: plan.zone,
    recurrence: plan.recurrence,
    ...(plan.top === undefined ? {} : { top: plan.top }),
    ...(omitted > 0 ? { omitted } : {}),
  };
  return composeDigest(input);
}
