import { DiscordAPIError, parseResponse, type REST, RequestMethod, Routes } from 'discord.js';
import type { DeliveryOutcome, Destination, Message, MessageReference } from '../../src/ports/index.js';
import { DELETE_REFUSED } from '../../src/ports/index.js';
import { bucketOf, outcomeOfError } from './deliver.js';
import { renderDiscordMessage } from './render-message.js';

/**
 * Discord's answers that this one message can no longer be edited: 10008 Unknown Message
 * (someone deleted it), 50005 (not the bot's message). The edit is dropped; the channel's
 * subscriptions carry on.
 */
const MESSAGE_GONE: Record<number, string> = {
  10008: 'unknown_message',
  50005: 'cannot_edit_others_message',
};

/**
 * Replaces a posted message (`PATCH /channels/{channel}/messages/{message}`, in the channel the
 * reference names when the message sits in a thread), rendered as a new
 * post would be, through the same discord.js limiter so the channel's stated bucket paces it.
 * Outcomes as values; other errors are mapped as a post's (a lost channel pauses its
 * subscriptions and /directory status says why).
 */
export async function editMessage(
  rest: REST,
  destination: Destination,
  reference: MessageReference,
  message: Message,
): Promise<DeliveryOutcome> {
  try {
    return await changeMessage(
      rest,
      destination,
      reference,
      RequestMethod.Patch,
      renderDiscordMessage(message),
    );
  } catch (error) {
    if (error instanceof DiscordAPIError) {
      const gone = MESSAGE_GONE[Number(error.code)];
      if (gone !== undefined) {
        const reason = `${error.status} ${error.message} (code ${error.code})`;
        return { status: 'rejected', code: gone, reason, scope: 'message' };
      }
    }
    return outcomeOfError(error);
  }
}

/**
 * Deletes a message the bot posted (`DELETE /channels/{channel}/messages/{message}`; a bot needs
 * no permission for its own messages), paced like an edit. 10008 Unknown Message means it is
 * already gone: done. 50013 Missing Permissions is `DELETE_REFUSED`: the core marks it instead.
 */
export async function deleteMessage(
  rest: REST,
  destination: Destination,
  reference: MessageReference,
): Promise<DeliveryOutcome> {
  try {
    return await changeMessage(rest, destination, reference, RequestMethod.Delete);
  } catch (error) {
    if (error instanceof DiscordAPIError && Number(error.code) === 10008) {
      return { status: 'delivered', platformMessageId: reference.messageId };
    }
    if (error instanceof DiscordAPIError && Number(error.code) === 50013) {
      const reason = `Discord refused to delete the message: ${error.status} ${error.message} (code 50013)`;
      return { status: 'rejected', code: DELETE_REFUSED, reason, scope: 'message' };
    }
    return outcomeOfError(error);
  }
}

/** One request on a posted message, in the channel it lives in (a reply or forum post: its thread). */
async function changeMessage(
  rest: REST,
  destination: Destination,
  reference: MessageReference,
  method: RequestMethod.Patch | RequestMethod.Delete,
  body?: unknown,
): Promise<DeliveryOutcome> {
  const response = await rest.queueRequest({
    fullRoute: Routes.channelMessage(reference.channelId ?? destination.channelId, reference.messageId),
    method,
    ...(body === undefined ? {} : { body }),
  });
  await parseResponse(response);
  const bucket = bucketOf(response.headers);
  return {
    status: 'delivered',
    platformMessageId: reference.messageId,
    ...(bucket === undefined ? {} : { bucket }),
  };
}
