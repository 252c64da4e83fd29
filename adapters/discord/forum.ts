import { parseResponse, type REST, RequestMethod, Routes } from 'discord.js';
import type { DeliveryOutcome, Message } from '../../src/ports/index.js';
import { bucketOf, outcomeOfError } from './deliver.js';
import { renderDiscordMessage } from './render-message.js';

/** Discord's longest thread (forum post) name. */
const NAME_MAX = 100;

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
    return outcomeOfError(error);
  }
}
