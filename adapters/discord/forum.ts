import { DiscordAPIError, parseResponse, type REST, RequestMethod, Routes } from 'discord.js';
import type { DeliveryOutcome, Message } from '../../src/ports/index.js';
import { bucketOf, outcomeOfError } from './deliver.js';
import { renderDiscordMessage } from './render-message.js';

/** Discord's longest thread (forum post) name. */
const NAME_MAX = 100;
/** "A tag is required to create a forum post in this channel": the forum has Require Tags on. */
const TAG_REQUIRED = 40067;

/**
 * A forum that requires a tag refuses every post the bot makes (it sets no tag), until someone
 * changes the forum: the channel's subscriptions pause with what to change, for /directory status.
 */
function tagRequired(error: DiscordAPIError): DeliveryOutcome {
  const reason =
    'this forum requires a tag on every post and the bot sets none: turn off "Require people to ' +
    'select tags when posting" in the forum\'s settings (or subscribe a text channel), then resume ' +
    `the subscriptions (${error.status} ${error.message}, code ${error.code})`;
  return { status: 'rejected', code: 'forum_tag_required', reason, scope: 'destination' };
}

/**
 * A forum channel takes no plain messages (`POST /channels/{id}/messages` is refused as not a
 * text channel): each item becomes a forum post instead (`POST /channels/{id}/threads` with the
 * rendered message as its first message), and that post is the item's thread, so comments on it
 * go straight in (the delivered outcome's `threadId`: no thread to start later). Forum posts take
 * no nonce, so a retry after a lost answer could post twice; the outbox asks the ledger first.
 */
export async function postInForum(rest: REST, channelId: string, message: Message): Promise<DeliveryOutcome> {
  const name = [...(message.title.trim() || message.fallback.trim() || 'Update')].slice(0, NAME_MAX).join('');
  try {
    const response = await rest.queueRequest({
      fullRoute: Routes.threads(channelId),
      method: RequestMethod.Post,
      body: { name, message: renderDiscordMessage(message) },
    });
    const created = (await parseResponse(response)) as
      | { id?: unknown; message?: { id?: unknown } }
      | undefined;
    const threadId = typeof created?.id === 'string' ? created.id : undefined;
    const messageId = typeof created?.message?.id === 'string' ? created.message.id : threadId;
    const bucket = bucketOf(response.headers);
    return {
      status: 'delivered',
      ...(messageId === undefined ? {} : { platformMessageId: messageId }),
      ...(threadId === undefined ? {} : { threadId, channelId: threadId }),
      ...(bucket === undefined ? {} : { bucket }),
    };
  } catch (error) {
    if (error instanceof DiscordAPIError && Number(error.code) === TAG_REQUIRED) return tagRequired(error);
    return outcomeOfError(error);
  }
}
