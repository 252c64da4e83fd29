import type { EntryThread, OutboxEntry } from '../delivery/index.js';
import type { DigestInput, HeldItem } from '../messages/index.js';
import type { Message } from '../ports/index.js';
import { capWindowAt, quietWindowAt, SCHEDULE_LIMITS, type ScheduleOptions } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';
import { destinationKey } from '../subscriptions/index.js';
import type { DueRelease } from './due-releases.js';
import type { HeldState } from './held-item-store.js';

export type ComposeDigest = (input: DigestInput) => Message[];

/** The items one release takes: held for its kind and found before its boundary, oldest first. */
export function releasedItems(state: HeldState, release: DueRelease): HeldItem[] {
  return state.items
    .filter((item) => item.reason === release.kind && item.discoveredAt < release.before)
    .sort((a, b) => a.discoveredAt - b.discoveredAt);
}

/**
 * The outbox entries of one release. Their item keys depend only on the subscription, the kind
 * and the release's boundary (`digest:<subscription>:<slot ISO>:<part>`), so a release repeated
 * after a crash finds its own entries in the outbox or the delivered ledger and posts nothing
 * twice. Quiet hours that held few messages post each as it would have been (its own item key);
 * more become one summary; a cap's excess is always one summary.
 */
export function releaseEntries(
  subscription: Subscription,
  state: HeldState,
  release: DueRelease,
  zone: string,
  now: number,
  composeDigest: ComposeDigest,
): OutboxEntry[] {
  const items = releasedItems(state, release);
  const omitted = state.omitted[release.kind] ?? 0;
  const schedule = subscription.schedule ?? {};
  const entry = (itemKey: string, message: Message, thread?: EntryThread): OutboxEntry => ({
    destination: {
      platform: subscription.platform,
      channelId: subscription.channelId,
      ...(subscription.workspaceId ? { workspaceId: subscription.workspaceId } : {}),
    },
    destinationKey: destinationKey(subscription.platform, subscription.channelId),
    itemKey,
    message,
    subscriptionIds: [subscription.id],
    enqueuedAt: now,
    attempts: 0,
    notBefore: now,
    ...(thread === undefined ? {} : { thread }),
  });

  if (release.kind === 'quiet' && items.length <= SCHEDULE_LIMITS.quietSummaryOver && omitted === 0)
    return items.map((item) => entry(item.itemKey, item.message, item.thread));
  if (items.length === 0 && omitted === 0 && (release.kind !== 'digest' || schedule.digestEmpty !== true))
    return [];

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
  // folds in matched `--mention-on` (each held message was addressed when it was held).
  const mentions = items.find((item) => item.message.mentions?.length)?.message.mentions;
  const addressed = (message: Message, part: number): Message => ({
    ...message,
    // Once per digest: its first part pings, the "(2/3)" parts after it do not.
    ...(mentions === undefined || part > 0 ? {} : { mentions }),
    ...(subscription.sender === undefined ? {} : { sender: subscription.sender }),
  });
  return composeDigest(input).map((message, i) =>
    entry(`${release.kind}:${subscription.id}:${stamp}:${i + 1}`, addressed(message, i)),
  );
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
