import type { HeldState } from '../delivery/held-items.js';
import type { OutboxEntry } from '../delivery/outbox.js';
import { destinationKey } from '../delivery/router.js';
import type { Subscription } from '../delivery/subscriptions.js';
import type { Message } from '../ports/message.js';
import type { DigestInput, HeldItem } from '../schedule/held-item.js';
import { SCHEDULE_LIMITS } from '../schedule/schedule-options.js';
import type { DueRelease } from './schedule-due.js';

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
  const entry = (itemKey: string, message: Message): OutboxEntry => ({
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
  });

  if (release.kind === 'quiet' && items.length <= SCHEDULE_LIMITS.quietSummaryOver && omitted === 0)
    return items.map((item) => entry(item.itemKey, item.message));
  if (items.length === 0 && omitted === 0 && (release.kind !== 'digest' || schedule.digestEmpty !== true))
    return [];

  const from =
    release.kind === 'digest'
      ? Math.max(state.lastDigestAt ?? subscription.createdAt, subscription.createdAt)
      : Math.min(...items.map((item) => item.discoveredAt), release.before);
  const input: DigestInput = {
    kind: release.kind,
    feed: subscription.feed,
    items,
    period: { from, to: release.before },
    zone,
    ...(release.kind === 'digest' && schedule.top !== undefined ? { top: schedule.top } : {}),
    ...(release.kind === 'digest' && schedule.digest ? { cadence: schedule.digest } : {}),
    ...(omitted > 0 ? { omitted } : {}),
    ...(release.lateFor === undefined ? {} : { lateFor: release.lateFor }),
  };
  const stamp = new Date(release.before).toISOString();
  return composeDigest(input).map((message, i) =>
    entry(`${release.kind}:${subscription.id}:${stamp}:${i + 1}`, message),
  );
}
