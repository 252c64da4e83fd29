import { type REST, Routes } from 'discord.js';
import type { DeliveryOutcome, Destination, Logger, Message } from '../../src/ports/index.js';
import { outcomeOfError, postMessage } from './deliver.js';

/** Discord's "Cannot send messages to this user": DMs closed, or no server shared with the bot. */
const CANNOT_MESSAGE_USER = 'cannot_message_user';
/** DM channel ids by user id: opening one is idempotent on Discord's side, so a lost cache is harmless. */
const MAX_CACHED = 10_000;

/** A refusal about one person drops only this DM: no channel to pause, nothing to retry. */
function forThisMessage(outcome: DeliveryOutcome): DeliveryOutcome {
  return outcome.status === 'rejected' ? { ...outcome, scope: 'message' } : outcome;
}

/**
 * Direct messages on Discord: `POST /users/@me/channels` with `recipient_id` opens (or returns)
 * the DM channel, then the message is posted there like any channel message, with its nonce. A
 * person who does not take DMs from the bot (50007) is refused once, logged once, and the DM is
 * dropped (the outbox counts it); it never holds up a channel's deliveries.
 */
export function createDiscordDirectMessages(deps: { rest: REST; logger: Logger }) {
  const channels = new Map<string, string>();

  async function openChannel(userId: string): Promise<string | DeliveryOutcome> {
    const known = channels.get(userId);
    if (known !== undefined) return known;
    try {
      const opened = (await deps.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as {
        id?: unknown;
      };
      if (typeof opened.id !== 'string') {
        return { status: 'failed', code: 'platform_error', reason: 'no DM channel id in the answer' };
      }
      if (channels.size >= MAX_CACHED) channels.clear();
      channels.set(userId, opened.id);
      return opened.id;
    } catch (error) {
      return forThisMessage(outcomeOfError(error));
    }
  }

  return async function deliverDirect(
    destination: Destination,
    message: Message,
    idempotencyKey: string,
  ): Promise<DeliveryOutcome> {
    const opened = await openChannel(destination.channelId);
    const outcome =
      typeof opened === 'string'
        ? forThisMessage(await postMessage(deps.rest, opened, message, idempotencyKey))
        : opened;
    if (outcome.status === 'rejected') {
      const closed = outcome.code === CANNOT_MESSAGE_USER;
      deps.logger.info(
        { userId: destination.channelId, code: outcome.code },
        closed
          ? 'a reminder DM was refused: the person does not take DMs from the bot; dropped, not retried'
          : 'a reminder DM was refused; dropped, not retried',
      );
    }
    return outcome;
  };
}
