import type { DeliveryOutcome, Destination, Message, MessageReference } from '../../src/ports/index.js';
import { outcomeFromSlackError, rateLimitRetryAfterMs, slackErrorCode } from './error-mapping.js';
import type { SlackDeliveryDeps } from './post-message.js';
import { renderSlackMessage } from './render-message.js';

export type SlackEdit = (
  destination: Destination,
  reference: MessageReference,
  message: Message,
) => Promise<DeliveryOutcome>;

/**
 * Slack's answers that this one message can no longer be edited: it was deleted
 * (`message_not_found`), or is not the bot's to change (`cant_update_message`,
 * `edit_window_closed`). The edit is dropped; the channel's subscriptions carry on.
 */
const MESSAGE_GONE = new Set(['message_not_found', 'cant_update_message', 'edit_window_closed']);

/**
 * Replaces a posted message with chat.update (same `ts`), rendered as a new post would be.
 * Outcomes as values, mapped like a post's: a lost channel is `rejected` (its subscriptions pause
 * and /directory status says why), a 429 is `failed` with Retry-After.
 */
export function createSlackEdit(deps: SlackDeliveryDeps): SlackEdit {
  const context = { multiWorkspace: deps.tokenHealth === undefined };
  return async (destination, reference, message) => {
    const token = await slackTokenOrRefusal(deps, destination);
    if (typeof token !== 'string') return token;
    const { unfurl_links: _links, unfurl_media: _media, ...payload } = renderSlackMessage(message);
    try {
      await deps.client.chat.update({
        token,
        channel: destination.channelId,
        ts: reference.messageId,
        ...payload,
      });
      return { status: 'delivered', platformMessageId: reference.messageId };
    } catch (error) {
      const retryAfterMs = rateLimitRetryAfterMs(error);
      if (retryAfterMs !== undefined)
        deps.emit({ type: 'rate_limited', method: 'chat.update', retryAfterMs });
      const code = slackErrorCode(error);
      if (code !== undefined && MESSAGE_GONE.has(code)) {
        return {
          status: 'rejected',
          code,
          reason: `Slack cannot update the message (${code})`,
          scope: 'message',
        };
      }
      return outcomeFromSlackError(error, context);
    }
  };
}

/** The token for a destination's workspace, or the outcome saying why there is none. */
export async function slackTokenOrRefusal(
  deps: SlackDeliveryDeps,
  destination: Destination,
): Promise<string | DeliveryOutcome> {
  try {
    const token = await deps.tokenFor(destination);
    if (token !== undefined) return token;
  } catch (error) {
    return outcomeFromSlackError(error, { multiWorkspace: deps.tokenHealth === undefined });
  }
  return {
    status: 'rejected',
    code: 'not_installed',
    reason: `The app is not installed in workspace ${destination.workspaceId ?? '(none given)'}`,
    scope: 'destination',
  };
}
