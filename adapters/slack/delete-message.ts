import type { DeliveryOutcome, Destination, MessageReference } from '../../src/ports/index.js';
import { DELETE_REFUSED } from '../../src/ports/index.js';
import { slackTokenOrRefusal } from './edit-message.js';
import { outcomeFromSlackError, rateLimitRetryAfterMs, slackErrorCode } from './error-mapping.js';
import type { SlackDeliveryDeps } from './post-message.js';

export type SlackDelete = (destination: Destination, reference: MessageReference) => Promise<DeliveryOutcome>;

/** Slack's answers that the bot may not delete this message: the core marks it instead. */
const REFUSED = new Set(['cant_delete_message', 'no_permission', 'compliance_exports_prevent_deletion']);

/**
 * Deletes a message the bot posted with chat.delete (`chat:write` covers the bot's own messages).
 * `message_not_found` means it is already gone: done. Other errors are mapped as an edit's.
 */
export function createSlackDelete(deps: SlackDeliveryDeps): SlackDelete {
  return async (destination, reference) => {
    const token = await slackTokenOrRefusal(deps, destination);
    if (typeof token !== 'string') return token;
    try {
      await deps.client.chat.delete({ token, channel: destination.channelId, ts: reference.messageId });
      return { status: 'delivered', platformMessageId: reference.messageId };
    } catch (error) {
      const retryAfterMs = rateLimitRetryAfterMs(error);
      if (retryAfterMs !== undefined)
        deps.emit({ type: 'rate_limited', method: 'chat.delete', retryAfterMs });
      const code = slackErrorCode(error);
      if (code === 'message_not_found')
        return { status: 'delivered', platformMessageId: reference.messageId };
      if (code !== undefined && REFUSED.has(code)) {
        const reason = `Slack refused to delete the message (${code})`;
        return { status: 'rejected', code: DELETE_REFUSED, reason, scope: 'message' };
      }
      return outcomeFromSlackError(error, { multiWorkspace: deps.tokenHealth === undefined });
    }
  };
}
