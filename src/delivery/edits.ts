import type { Message } from '../ports/index.js';
import {
  type ChatAdapter,
  DELETE_REFUSED,
  type DeliveryOutcome,
  type Destination,
  type MessageReference,
} from '../ports/index.js';
import type { DeliveredLedger, ShownState } from './delivered-ledger.js';
import { withMuteActions } from './mute-actions.js';
import { EDIT_SUFFIX, type EditTarget, type Outbox, type OutboxEntry } from './outbox.js';
import { deliveredItem } from './threads.js';

/** Sends an edit through the adapter; a platform without edits drops it (counted, never retried). */
export function sendEdit(
  adapter: ChatAdapter,
  entry: OutboxEntry,
  target: NonNullable<OutboxEntry['edit']>,
): Promise<DeliveryOutcome> {
  if (target.delete === true && entry.destination.direct !== true) {
    // Refused like a platform's refusal, so the outbox marks the message instead (dispatch/delivery-attempt.ts).
    if (adapter.delete === undefined) {
      const reason = `${adapter.platform} cannot delete messages`;
      return Promise.resolve({ status: 'rejected', code: DELETE_REFUSED, reason, scope: 'message' });
    }
    return adapter.delete(entry.destination, referenceOf(target));
  }
  if (adapter.edit === undefined || entry.destination.direct === true) {
    return Promise.resolve({
      status: 'rejected',
      code: 'edits_unsupported',
      reason: `${adapter.platform} cannot edit this message`,
      scope: 'message',
    });
  }
  // The edited message keeps the buttons the post had.
  return adapter.edit(
    entry.destination,
    referenceOf(target),
    withMuteActions(entry.message, entry.subscriptionIds),
    deliveredItem({ ...entry, itemKey: entry.itemKey.replace(EDIT_SUFFIX, '') }),
  );
}

function referenceOf(target: EditTarget): MessageReference {
  return {
    messageId: target.messageId,
    ...(target.threadId !== undefined ? { threadId: target.threadId } : {}),
    ...(target.channelId !== undefined ? { channelId: target.channelId } : {}),
  };
}

/** What the ledger notes as shown once a message's deletion is queued: it is never edited again. */
export const DELETED_SHOWN = 'deleted';

/** Bounds on edits; see EDIT_MAX_AGE_H and EDIT_MIN_INTERVAL_S. */
export interface EditLimits {
  /** Messages posted longer ago than this are left as they are. */
  maxAgeMs: number;
  /** At most one edit per message per this many ms. */
  minIntervalMs: number;
}

export interface EditRequest {
  destination: Destination;
  destinationKey: string;
  itemKey: string;
  subscriptionIds: string[];
  /** The message as it should look now (already in the subscription's format). */
  message: Message;
  /** The values it shows that change upstream (see shownState): no edit while they are the same. */
  shown: string;
  /** The item's record, for a platform that is sent it (see OutboxEntry.record). */
  record?: unknown;
}

export type EditDecision = 'unposted' | 'too_old' | 'unchanged' | 'queued' | 'coalesced';

/**
 * Owes an edit when the message this destination holds for the item would now look different,
 * within the limits: queued durably in the outbox (coalesced with a pending one) before the
 * ledger records the new look, so a SIGKILL between the two repeats the edit, never loses it.
 */
export async function requestEdit(
  request: EditRequest & { delete?: true },
  deps: { outbox: Outbox; ledger: DeliveredLedger; limits: EditLimits; now: number },
): Promise<EditDecision> {
  const { outbox, ledger, limits, now } = deps;
  const reference = await ledger.reference(request.destinationKey, request.itemKey);
  if (reference === undefined) return 'unposted';
  if (now - reference.postedAt > limits.maxAgeMs) return 'too_old';
  // A deleted message is gone (or, refused, marked removed): nothing shown can change again.
  if (reference.shown === DELETED_SHOWN) return 'unchanged';
  const shown = request.delete ? DELETED_SHOWN : request.shown;
  // A message posted before edits existed has no recorded state: this one becomes its baseline.
  if (!request.delete && (reference.shown === undefined || shown === reference.shown)) {
    if (reference.shown === undefined)
      await ledger.noteShown(request.destinationKey, request.itemKey, {
        messageId: reference.messageId,
        shown,
        ...(reference.editedAt === undefined ? {} : { editedAt: reference.editedAt }),
      });
    return 'unchanged';
  }
  const pending = outbox.pendingEdit(request.destinationKey, request.itemKey);
  // A pending edit keeps its slot (the newer state rides on it); otherwise the interval runs from
  // the last edit, or the post.
  // A deletion waits for no interval: the message is not changed, it goes.
  const notBefore = request.delete
    ? now
    : (pending?.notBefore ??
      Math.max(now, (reference.editedAt ?? reference.postedAt) + limits.minIntervalMs));
  const entry: OutboxEntry = {
    destination: request.destination,
    destinationKey: request.destinationKey,
    itemKey: request.itemKey + EDIT_SUFFIX,
    message: request.message,
    subscriptionIds: request.subscriptionIds,
    ...(request.record === undefined ? {} : { record: request.record }),
    enqueuedAt: now,
    attempts: 0,
    notBefore,
    edit: {
      messageId: reference.messageId,
      ...(reference.threadId !== undefined ? { threadId: reference.threadId } : {}),
      ...(reference.channelId !== undefined ? { channelId: reference.channelId } : {}),
      revision: Math.max(now, (pending?.edit?.revision ?? 0) + 1),
      ...(request.delete ? { delete: true as const } : {}),
    },
  };
  const decision = await outbox.enqueueEdit(entry);
  const next: ShownState = { messageId: reference.messageId, shown, editedAt: notBefore };
  await ledger.noteShown(request.destinationKey, request.itemKey, next);
  return decision;
}
