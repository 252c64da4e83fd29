import { createHash } from 'node:crypto';
import {
  DiscordAPIError,
  HTTPError,
  parseResponse,
  RateLimitError,
  type REST,
  RequestMethod,
  Routes,
} from 'discord.js';
import {
  type BucketState,
  type DeliveryOutcome,
  type Destination,
  type Logger,
  type Message,
  messageOf,
} from '../../src/ports/index.js';
import { renderDiscordMessage } from './render-message.js';
import { RATE_LIMIT_OFFSET_MS } from './rest-client.js';

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
    const which = error.global ? 'the global limit' : error.route;
    return {
      status: 'failed',
      code: 'rate_limited',
      reason: `rate limited on ${which}`,
      retryAfterMs,
      ...(error.global ? { global: true } : {}),
    };
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

/**
 * The channel's bucket as Discord states it (`X-RateLimit-Remaining`, `-Reset-After`), with the
 * margin discord.js adds to its own reset, so the outbox never sends before discord.js thinks the
 * bucket refilled (it would refuse the request, and the delivery would be retried).
 */
export function bucketOf(headers: Headers): BucketState | undefined {
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? Number.NaN);
  const resetAfter = Number(headers.get('x-ratelimit-reset-after') ?? Number.NaN);
  if (!Number.isFinite(remaining) || !Number.isFinite(resetAfter)) return undefined;
  return { remaining, resetAfterMs: Math.ceil(resetAfter * 1000) + RATE_LIMIT_OFFSET_MS };
}

export interface DeliverDeps {
  rest: REST;
  logger: Logger;
  /** Posts into a forum channel instead (forum.ts), when the channel refuses plain messages. */
  forum?: (channelId: string, message: Message) => Promise<DeliveryOutcome>;
  /**
   * Channels a forum post went to (or was refused by as a forum): their items go straight to a
   * forum post, not first to a plain post Discord refuses. A channel's type never changes.
   */
  forums?: Set<string>;
}

/** How many forum channels are remembered before the memory starts over (one refused post each). */
const MAX_FORUMS = 10_000;

/** A refusal that means "not a channel for plain messages", which a forum channel answers. */
function refusedAsNotText(outcome: DeliveryOutcome): boolean {
  return (
    outcome.status === 'rejected' &&
    (outcome.code === 'not_a_text_channel' || outcome.code === 'wrong_channel_type')
  );
}

/** Refusals only a forum gives a forum post: the channel is one, and this is what to report. */
const FORUM_REFUSALS = new Set(['forum_tag_required', 'missing_access', 'missing_permissions', 'forbidden']);

/**
 * Whether the forum post's answer shows the channel is a forum: it went through, or a forum's
 * own refusal (a required tag, the forum's permissions). Another channel type's refusal or a
 * refused body says nothing of the kind: the plain post's refusal, which pauses the channel with
 * its reason, stays the outcome. A failure (429, 5xx) is retried and decides nothing.
 */
const answeredAsForum = (outcome: DeliveryOutcome) =>
  outcome.status === 'delivered' || (outcome.status === 'rejected' && FORUM_REFUSALS.has(outcome.code));

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
  const { channelId } = destination;
  const { forum, forums } = deps;
  let outcome: DeliveryOutcome;
  if (forum !== undefined && forums?.has(channelId)) outcome = await forum(channelId, message);
  else {
    outcome = await postMessage(deps.rest, channelId, message, idempotencyKey);
    if (forum !== undefined && refusedAsNotText(outcome)) {
      // A forum channel: the item becomes a forum post. Another channel type refuses that too,
      // and keeps the first refusal; a forum's own refusal (a required tag) is the one to report.
      const asForum = await forum(channelId, message);
      if (answeredAsForum(asForum)) {
        outcome = asForum;
        if (forums !== undefined) {
          if (forums.size >= MAX_FORUMS) forums.clear();
          forums.add(channelId);
        }
      } else if (asForum.status === 'failed') outcome = asForum; // a 429 or 5xx: try again later
    }
  }
  if (outcome.status !== 'delivered') {
    deps.logger.warn(
      { channelId, status: outcome.status, code: outcome.code },
      'discord delivery did not go through',
    );
  }
  return outcome;
}

/** The post itself, without logging (the caller decides what a failure is worth saying). */
export async function postMessage(
  rest: REST,
  channelId: string,
  message: Message,
  idempotencyKey: string,
): Promise<DeliveryOutcome> {
  const body = { ...renderDiscordMessage(message), nonce: nonceFor(idempotencyKey), enforce_nonce: true };
  try {
    // `queueRequest` rather than `post`: the same request through the same limiter, but the
    // answer's rate-limit headers come back with it, so the outbox paces this channel by them.
    const response = await rest.queueRequest({
      fullRoute: Routes.channelMessages(channelId),
      method: RequestMethod.Post,
      body,
    });
    const created = (await parseResponse(response)) as { id?: unknown } | undefined;
    const bucket = bucketOf(response.headers);
    return {
      status: 'delivered',
      ...(typeof created?.id === 'string' ? { platformMessageId: created.id } : {}),
      ...(bucket === undefined ? {} : { bucket }),
    };
  } catch (error) {
    return outcomeOfError(error);
  }
}
