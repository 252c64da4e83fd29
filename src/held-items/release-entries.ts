import type { EntryThread, OutboxEntry } from '../delivery/index.js';
import type { DigestInput, DigestLayout, HeldItem } from '../messages/index.js';
import type { Message } from '../ports/index.js';
import { capWindowAt, quietWindowAt, SCHEDULE_LIMITS, type ScheduleOptions } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';
import { subscriptionDestination } from '../subscriptions/index.js';
import type { DueRelease } from './due-releases.js';
import type { HeldState } from './held-item-store.js';

export type ComposeDigest = (input: DigestInput, layout: DigestLayout) => Message[];

/** The items one release takes: held for its kind and found before its boundary, oldest first. */
export function releasedItems(state: HeldState, release: DueRelease): HeldItem[] {
  return state.items
    .filter((item) => item.reason === release.kind && item.discoveredAt < release.before)
    .sort((a, b) => a.discoveredAt - b.discoveredAt);
}

/** How the channel of one release takes a digest longer than one message (issue 29). */
export interface ReleaseTarget {
  zone: string;
  /** The platform keeps replies in threads (`ChatAdapter.repliesInThreads`). */
  repliesInThreads: boolean;
}

/** What one release queues, and its digest or summary in numbered parts (what `/directory digest` shows). */
export interface ReleaseMessages {
  entries: OutboxEntry[];
  /**
   * Absent when it fits one message (or there is none, or quiet hours' few items go as they were):
   * only a longer one has parts the channel may not see whole.
   */
  parts?: Message[];
}

/** The command a channel that cannot see a digest's later parts is told to use (src/commands/digest.ts). */
export function seeMoreCommand(subscriptionId: string): string {
  return `/directory digest ${subscriptionId} 2`;
}

/**
 * The outbox entries of one release. Their item keys depend only on the subscription, the kind
 * and the release's boundary (`digest:<subscription>:<slot ISO>:<part>`), so a release repeated
 * after a crash finds its own entries in the outbox or the delivered ledger and posts nothing
 * twice. Quiet hours that held few messages post each as it would have been (its own item key);
 * more become one summary; a cap's excess is always one summary.
 *
 * A digest or summary is one message in the channel (issue 29): part 1 is posted top-level, and
 * where the platform keeps replies in threads (and the subscription has threads on) the later
 * parts are its thread's replies, each carrying part 1 as it reads without a thread, in case the
 * thread refuses them; elsewhere part 1 counts them and names the command that shows them.
 */
export function releaseEntries(
  subscription: Subscription,
  state: HeldState,
  release: DueRelease,
  target: ReleaseTarget,
  now: number,
  composeDigest: ComposeDigest,
): ReleaseMessages {
  const { zone } = target;
  const items = releasedItems(state, release);
  const omitted = state.omitted[release.kind] ?? 0;
  const schedule = subscription.schedule ?? {};
  const entry = (itemKey: string, message: Message, thread?: EntryThread): OutboxEntry => ({
    ...subscriptionDestination(subscription),
    itemKey,
    message,
    subscriptionIds: [subscription.id],
    enqueuedAt: now,
    attempts: 0,
    notBefore: now,
    ...(thread === undefined ? {} : { thread }),
  });

  if (release.kind === 'quiet' && items.length <= SCHEDULE_LIMITS.quietSummaryOver && omitted === 0)
    return { entries: items.map((item) => entry(item.itemKey, item.message, item.thread)) };
  if (items.length === 0 && omitted === 0 && (release.kind !== 'digest' || schedule.digestEmpty !== true))
    return { entries: [] };

  const cap = release.kind === 'cap' ? capThatHeld(schedule, zone, release.before) : undefined;
  const quiet =
    release.kind === 'quiet' && schedule.quiet
      ? quietWindowAt(schedule.quiet, zone, release.before - 1)
      : undefined;
  const from =
    release.kind === 'digest'
      ? Math.max(state.lastDigestAt ?? subscription.createdAt, subscription.createdAt)
      : (cap?.start ?? quiet?.start ?? Math.min(...items.map((item) => item.discoveredAt), release.before));
  const input: DigestInput = {
    kind: release.kind,
    feed: subscription.feed,
    items,
    period: { from, to: release.before },
    zone,
    ...(release.kind === 'digest' && schedule.top !== undefined ? { top: schedule.top } : {}),
    ...(release.kind === 'digest' && schedule.digest ? { recurrence: schedule.digest } : {}),
    ...(omitted > 0 ? { omitted } : {}),
    ...(cap ? { cap: { max: cap.max, per: cap.per } } : {}),
    ...(release.lateFor === undefined ? {} : { lateFor: release.lateFor }),
  };
  const stamp = new Date(release.before).toISOString();
  // A digest pings whom its items would have pinged: the configured targets, when any item it
  // folds in matched `--mention-on` (each held message was addressed when it was held); once, on
  // its first message. Every message posts under the subscription's chosen name.
  const mentions = items.find((item) => item.message.mentions?.length)?.message.mentions;
  const addressed = (message: Message, first: boolean): Message => ({
    ...message,
    ...(mentions === undefined || !first ? {} : { mentions }),
    ...(subscription.sender === undefined ? {} : { sender: subscription.sender }),
  });
  const keyOf = (part: number) => `${release.kind}:${subscription.id}:${stamp}:${part}`;
  const [head, ...replies] = composeDigest(input, { rest: 'thread' });
  if (head === undefined) return { entries: [] };
  // One message holds it all, the same in every layout: nothing to thread, count or keep.
  if (replies.length === 0) return { entries: [entry(keyOf(1), addressed(head, true))] };
  const summary = composeDigest(input, { rest: 'summary', seeMore: seeMoreCommand(subscription.id) });
  const parts = composeDigest(input, { rest: 'parts' });
  const threaded = target.repliesInThreads && subscription.threading?.off !== true;
  if (!threaded)
    return { entries: summary.map((message, i) => entry(keyOf(i + 1), addressed(message, i === 0))), parts };
  const thread: EntryThread = {
    parentKey: keyOf(1),
    title: head.title,
    ...(summary[0] === undefined ? {} : { parentInstead: summary[0] }),
  };
  return {
    entries: [
      entry(keyOf(1), addressed(head, true)),
      ...replies.map((reply, i) => entry(keyOf(i + 2), addressed(reply, false), thread)),
    ],
    parts,
  };
}

/**
 * The cap whose window ended at `end`: the day's when the day ended then and a daily cap is set
 * (a full day holds everything to its end), else the hour's.
 */
function capThatHeld(schedule: ScheduleOptions, zone: string, end: number) {
  const day = capWindowAt('day', zone, end - 1);
  if (schedule.maxPerDay !== undefined && (day.end === end || schedule.maxPerHour === undefined))
    return { max: schedule.maxPerDay, per: 'day' as const, start: day.start };
  const hour = capWindowAt('hour', zone, end - 1);
  return { max: schedule.maxPerHour ?? schedule.maxPerDay ?? 0, per: 'hour' as const, start: hour.start };
}
