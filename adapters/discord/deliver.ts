import { createHash } from 'node:crypto';
import { DiscordAPIError, HTTPError, RateLimitError, type REST, Routes } from 'discord.js';
import {
  type DeliveryOutcome,
  type Destination,
  type Logger,
  type Message,
  messageOf,
} from '../../src/ports/index.js';
import { renderDiscordMessage } from './render-message.js';

/** Discord JSON error codes that mean "this channel will not take our posts", whatever we retry. */
const PERMANENT_CODES: Record<number, string> = {
  10003: 'unknown_channel',
  10004: 'unknown_guild',
  50001: 'missing_access',
  50013: 'missing_permissions',
  50007: 'cannot_message_user',
  50008: 'not_a_text_channel',
  50024: 'wrong_channel_type',
  50083: 'archived_thread',
  160005: 'thread_locked',
};
const NONCE_MAX = 25;

/**
 * A nonce derived from the idempotency key: the same key always gives the same nonce, so with
 * `enforce_nonce` Discord returns the earlier message instead of posting a duplicate when a
 * retry follows a post whose response was lost (Discord remembers nonces for a few minutes).
 */
export function nonceFor(idempotencyKey: string): string {
  return createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, NONCE_MAX);
}

/**
 * Maps a discord.js failure to a delivery outcome: "this channel is gone or closed to us" is
 * rejected for the destination, a refused body is rejected for this message only, everything
 * else (429, 5xx, 401, network) is transient.
 */
export function outcomeOfError(error: unknown): DeliveryOutcome {
  if (error instanceof RateLimitError) {
    const retryAfterMs = Math.max(error.retryAfter, error.sublimitTimeout, error.timeToReset, 1);
    return { status: 'failed', code: 'rate_limited', reason: `rate limited on ${error.route}`, retryAfterMs };
  }
  if (error instanceof DiscordAPIError) {
    const code = typeof error.code === 'number' ? error.code : Number(error.code);
    const permanent = PERMANENT_CODES[code];
    const reason = `${error.status} ${error.message} (code ${error.code})`;
    if (permanent) return { status: 'rejected', code: permanent, reason, scope: 'destination' };
    if (error.status === 404) return { status: 'rejected', code: 'not_found', reason, scope: 'destination' };
    if (error.status === 403) return { status: 'rejected', code: 'forbidden', reason, scope: 'destination' };
    // A body Discord refuses (50035 Invalid Form Body, …) will be refused again, and retrying only
    // burns invalid-request budget — but it is this message's fault, not the channel's: drop the
    // message and keep the channel's subscriptions running.
    if (error.status === 400) return { status: 'rejected', code: 'invalid_body', reason, scope: 'message' };
    if (error.status === 429) return { status: 'failed', code: 'rate_limited', reason, retryAfterMs: 1_000 };
    // 401 is the bot's token, not the channel: keep the subscription and let the operator fix it.
    return { status: 'failed', code: error.status === 401 ? 'unauthorized' : 'platform_error', reason };
  }
  if (error instanceof HTTPError) {
    return { status: 'failed', code: 'server_error', reason: `${error.status} ${error.message}` };
  }
  return { status: 'failed', code: 'network', reason: messageOf(error) };
}

export interface DeliverDeps {
  rest: REST;
  logger: Logger;
}

/**
 * Posts a rendered message to a channel (`POST /channels/{id}/messages`) with a nonce, and
 * returns the outcome as a value: one bad channel never throws into the delivery cycle.
 */
export async function deliverMessage(
  deps: DeliverDeps,
  destination: Destination,
  message: Message,
  idempotencyKey: string,
): Promise<DeliveryOutcome> {
  const body = { ...renderDiscordMessage(message), nonce: nonceFor(idempotencyKey), enforce_nonce: true };
  try {
    const created = (await deps.rest.post(Routes.channelMessages(destination.channelId), { body })) as {
      id?: unknown;
    };
    return typeof created?.id === 'string'
      ? { status: 'delivered', platformMessageId: created.id }
      : { status: 'delivered' };
  } catch (error) {
    const outcome = outcomeOfError(error);
    const code = outcome.status === 'delivered' ? undefined : outcome.code;
    deps.logger.warn(
      { channelId: destination.channelId, status: outcome.status, code },
      'discord delivery did not go through',
    );
    return outcome;
  }
}
