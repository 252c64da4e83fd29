import { type ChatAdapter, DELETE_REFUSED, type DeliveryOutcome } from '../ports/chat-adapter.js';
import type { Clock } from '../ports/clock.js';
import type { DispatchEvent } from './dispatch-events.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import type { Pacer } from './pacer.js';
import { backoff } from './retry-backoff.js';
import type { SubscriptionRepository } from './subscriptions.js';

export interface SettleDeps {
  outbox: Outbox;
  subscriptions: SubscriptionRepository;
  clock: Clock;
  pacer: Pacer;
  maxAttempts: number;
  onEvent?: ((event: DispatchEvent) => void) | undefined;
  /** Records a confirmed post in the ledger and forgets the entry. */
  recordDelivered(entry: OutboxEntry, startedAt: number): Promise<void>;
}

/**
 * What the platform's answer means for the entry: recorded as delivered, dropped (one message),
 * the destination paused (rejected for good), given up on, or rescheduled by the backoff or the
 * platform's stated wait. Store errors are the caller's to handle.
 */
export async function settleOutcome(
  adapter: ChatAdapter,
  entry: OutboxEntry,
  outcome: DeliveryOutcome,
  startedAt: number,
  deps: SettleDeps,
): Promise<void> {
  const { outbox, subscriptions, clock, onEvent, maxAttempts } = deps;
  if (outcome.status === 'rejected' && outcome.code === DELETE_REFUSED && entry.edit?.delete) {
    await markInstead(entry, outcome.reason, deps);
    return;
  }
  if (outcome.status === 'delivered' && entry.edit !== undefined) {
    await outbox.remove(entry);
    onEvent?.({ type: 'edited', entry, ms: clock.now() - startedAt });
    return;
  }
  if (outcome.status === 'delivered') {
    entry.posted = true;
    if (outcome.platformMessageId !== undefined) {
      entry.reference = {
        messageId: outcome.platformMessageId,
        postedAt: clock.now(),
        ...(outcome.threadId === undefined ? {} : { threadId: outcome.threadId }),
        ...(outcome.channelId === undefined ? {} : { channelId: outcome.channelId }),
        ...(entry.shown === undefined ? {} : { shown: entry.shown }),
      };
    }
    await deps.recordDelivered(entry, startedAt);
    return;
  }
  // A deletion that cannot go is marked instead: the ledger already says "deleted", so nothing
  // else would ever mark it.
  if (outcome.status === 'rejected' && outcome.scope === 'message' && entry.edit?.delete) {
    await markInstead(entry, outcome.reason, deps);
    return;
  }
  // A person who refuses DMs holds no channel and no subscription: drop that one message.
  if (outcome.status === 'rejected' && (outcome.scope === 'message' || entry.destination.direct)) {
    await outbox.remove(entry);
    onEvent?.({ type: 'dropped', entry, code: outcome.code, reason: outcome.reason });
    return;
  }
  if (outcome.status === 'rejected') {
    await subscriptions.pauseDestination(
      entry.destination.platform,
      entry.destination.channelId,
      outcome.code,
      outcome.reason,
    );
    const dropped = await outbox.dropDestination(entry.destinationKey);
    onEvent?.({
      type: 'rejected',
      entry,
      code: outcome.code,
      reason: outcome.reason,
      dropped: dropped.length,
    });
    return;
  }
  const rateLimited = outcome.retryAfterMs !== undefined;
  if (!rateLimited && entry.attempts + 1 >= maxAttempts) {
    if (entry.edit?.delete) return markInstead(entry, `gave up deleting: ${outcome.reason}`, deps);
    await outbox.remove(entry);
    onEvent?.({
      type: 'abandoned',
      entry,
      reason: `${outcome.code}: ${outcome.reason} (after ${maxAttempts} attempts)`,
    });
    return;
  }
  const retryInMs = outcome.retryAfterMs ?? backoff(entry.attempts);
  if (rateLimited) {
    deps.pacer.rateLimited(entry, adapter, retryInMs, outcome.global === true, clock.now());
  }
  // A wait for the whole platform holds this entry by the platform's pace, not its own notBefore.
  const notBefore = outcome.global === true ? clock.now() : clock.now() + retryInMs;
  await outbox.reschedule(entry, notBefore, !rateLimited);
  onEvent?.({ type: 'failed', entry, code: outcome.code, reason: outcome.reason, retryInMs });
}

/**
 * The platform refused to delete the message (no permission, or it cannot delete): the entry
 * becomes the edit marking it removed, due now, and its subscriptions note why for
 * `/directory status`.
 */
async function markInstead(entry: OutboxEntry, reason: string, deps: SettleDeps): Promise<void> {
  const { delete: _delete, ...mark } = entry.edit!;
  await deps.outbox.enqueueEdit({ ...entry, edit: mark, attempts: 0, notBefore: deps.clock.now() });
  const problem = { code: DELETE_REFUSED, reason, at: deps.clock.now() };
  await deps.subscriptions.noteProblem('removalProblem', entry.subscriptionIds, problem);
}
