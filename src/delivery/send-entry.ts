import type { ChatAdapter, DeliveryOutcome } from '../ports/chat-adapter.js';
import { sendEdit } from './edits.js';
import { withMuteActions } from './mute-actions.js';
import type { OutboxEntry } from './outbox.js';
import type { ThreadDelivery } from './thread-delivery.js';

/** A channel post, or a direct message where the destination is a person (a reminder). */
export function sendEntry(
  adapter: ChatAdapter,
  entry: OutboxEntry,
  threads: ThreadDelivery,
): Promise<DeliveryOutcome> {
  if (entry.edit !== undefined) return sendEdit(adapter, entry, entry.edit);
  const options = { idempotencyKey: `${entry.destinationKey}|${entry.itemKey}` };
  if (entry.destination.direct !== true) {
    // A channel's message gets "Mute this subscription" for the subscription it is delivered for;
    // a reply goes under its post's message when the channel has it (thread-delivery.ts).
    const message = withMuteActions(entry.message, entry.subscriptionIds);
    return threads.send(adapter, entry, message, (destination, m) =>
      adapter.deliver(destination, m, options),
    );
  }
  if (adapter.deliverDirect === undefined) {
    return Promise.resolve({
      status: 'rejected',
      code: 'direct_messages_unsupported',
      reason: `${adapter.platform} cannot send direct messages`,
      scope: 'message',
    });
  }
  return adapter.deliverDirect(entry.destination, entry.message, options);
}
