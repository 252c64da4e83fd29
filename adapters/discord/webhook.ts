import type {
  BucketState,
  DeliveryOutcome,
  Destination,
  KindContext,
  Message,
  MessageReference,
  WebhookEndpoint,
  WebhookKind,
  WebhookResponse,
} from '../../src/ports/index.js';
import {
  DELETE_REFUSED,
  header,
  isFailure,
  isSuccess,
  outcomeOfFailure,
  quoted,
  retryAfterMs,
  sanitizeUrl,
  truncate,
} from '../../src/ports/index.js';
import { RATE_LIMIT_OFFSET_MS } from './limits.js';
import { DISCORD_MENTIONS } from './mentions.js';
import { type DiscordMessageBody, renderDiscordMessage } from './render-message.js';

/** `…/api/webhooks/{id}/{token}` (also `/api/v10/webhooks/…`), on discord.com or a test server. */
const PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d{17,20})\/([A-Za-z0-9_-]+)\/?$/;
/** Discord's longest thread (forum post) name. */
const THREAD_NAME_MAX = 100;

/** Discord's JSON error codes a webhook answers with that we act on. */
const CODES = {
  unknownChannel: 10003,
  unknownMessage: 10008,
  unknownWebhook: 10015,
  invalidWebhookToken: 50027,
  archivedThread: 50083,
  /** "Webhooks posted to forum channels must have a thread_name or thread_id". */
  forumNeedsThread: 220001,
  /** "Webhooks can only create threads in forum channels". */
  notAForum: 220003,
} as const;

/** The create body of a webhook message: the bot's message body, plus the webhook's own fields. */
export interface DiscordWebhookBody extends Omit<DiscordMessageBody, 'components' | 'flags'> {
  username?: string;
  avatar_url?: string;
  thread_name?: string;
}

/**
 * A message as a Discord webhook posts it (`POST /webhooks/{id}/{token}`): the embed the bot's
 * channels get, the configured mentions as content with `allowed_mentions` naming exactly them,
 * and the subscription's name and avatar. No buttons: a webhook that no application owns cannot
 * send interactive components, and the embed's title already links to the item.
 */
export function renderDiscordWebhookMessage(message: Message): DiscordWebhookBody {
  const {
    components: _components,
    flags: _flags,
    ...body
  } = renderDiscordMessage({
    ...message,
    actions: [],
  });
  const webhookBody: DiscordWebhookBody = body;
  const name = message.sender?.name?.trim();
  if (name) webhookBody.username = truncate(name, 80);
  const avatar = sanitizeUrl(message.sender?.avatarUrl);
  if (avatar !== undefined && avatar.length <= 2048) webhookBody.avatar_url = avatar;
  return webhookBody;
}

/** A forum post's name: the item's title, as the bot names its forum posts. */
function threadName(message: Message): string {
  return [...(message.title.trim() || message.fallback.trim() || 'Update')]
    .slice(0, THREAD_NAME_MAX)
    .join('');
}

function baseUrl(endpoint: WebhookEndpoint): string {
  const url = new URL(endpoint.url);
  return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
}

function withQuery(url: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  const text = params.toString();
  return text === '' ? url : `${url}?${text}`;
}

interface DiscordError {
  code?: number;
  message?: string;
  retry_after?: number;
  global?: boolean;
}

function errorOf(response: WebhookResponse): DiscordError {
  try {
    const parsed = JSON.parse(response.body) as unknown;
    return parsed !== null && typeof parsed === 'object' ? (parsed as DiscordError) : {};
  } catch {
    return {};
  }
}

/** The webhook's bucket as Discord stated it, as the bot adapter reads it (deliver.ts `bucketOf`). */
function bucketOf(response: WebhookResponse): BucketState | undefined {
  const remaining = Number(header(response, 'x-ratelimit-remaining') ?? Number.NaN);
  const resetAfter = Number(header(response, 'x-ratelimit-reset-after') ?? Number.NaN);
  if (!Number.isFinite(remaining) || !Number.isFinite(resetAfter)) return undefined;
  return { remaining, resetAfterMs: Math.ceil(resetAfter * 1000) + RATE_LIMIT_OFFSET_MS };
}

/**
 * Discord's refusals: a 429 waits what it says (for every Discord webhook when it says global), a
 * webhook that is gone or whose token is wrong pauses its subscriptions ("If a webhook returns a
 * 404 status you should not attempt to use it again"), a refused body drops the message.
 */
function refusal(response: WebhookResponse, reply: boolean): DeliveryOutcome {
  const error = errorOf(response);
  const reason = `the Discord webhook answered ${response.status}: ${quoted(response)}`;
  if (response.status === 429) {
    const global = error.global === true || header(response, 'x-ratelimit-global') === 'true';
    const seconds = typeof error.retry_after === 'number' ? error.retry_after : undefined;
    const retry = seconds === undefined ? (retryAfterMs(response) ?? 1000) : Math.ceil(seconds * 1000);
    return {
      status: 'failed',
      code: 'rate_limited',
      reason,
      retryAfterMs: Math.max(1, retry),
      ...(global ? { global: true } : {}),
    };
  }
  if (response.status >= 500) return { status: 'failed', code: 'server_error', reason };
  if (reply && (error.code === CODES.archivedThread || error.code === CODES.unknownChannel)) {
    // The thread a reply was for will not take it: the core posts it top-level with a note.
    return { status: 'rejected', code: 'thread_unavailable', reason, scope: 'thread' };
  }
  if (
    response.status === 404 ||
    response.status === 401 ||
    response.status === 403 ||
    error.code === CODES.unknownWebhook ||
    error.code === CODES.invalidWebhookToken
  ) {
    const gone = response.status === 404 || error.code === CODES.unknownWebhook;
    return {
      status: 'rejected',
      code: gone ? 'webhook_gone' : 'webhook_refused',
      reason: gone ? `${reason} (the webhook was deleted: create a new one and update its URL)` : reason,
      scope: 'destination',
    };
  }
  return { status: 'rejected', code: 'invalid_body', reason, scope: 'message' };
}

/**
 * Posts with `?wait=true`, so Discord answers with the message and its id (what an edit needs).
 * A forum channel takes no plain message (220001): the item becomes a forum post named after it
 * (`thread_name`), which is its own thread, and the webhook is remembered as a forum's. A reply
 * goes into its post's thread (`thread_id`) when the post was a forum post.
 */
async function post(
  endpoint: WebhookEndpoint,
  destination: Destination,
  message: Message,
  forums: Set<string>,
  context: KindContext,
): Promise<DeliveryOutcome> {
  const threadId = destination.thread?.threadId;
  const reply = threadId !== undefined;
  const send = async (asForumPost: boolean) => {
    const body = renderDiscordWebhookMessage(message);
    if (asForumPost) body.thread_name = threadName(message);
    const url = withQuery(baseUrl(endpoint), { wait: 'true', thread_id: threadId });
    return context.http.send({ method: 'POST', url, body: JSON.stringify(body) });
  };
  const asForumPost = !reply && forums.has(endpoint.name);
  let answer = await send(asForumPost);
  if (isFailure(answer)) return outcomeOfFailure(answer);
  let forumPost = asForumPost;
  if (!reply && answer.status === 400) {
    const code = errorOf(answer).code;
    if (code === CODES.forumNeedsThread && !forumPost) {
      forums.add(endpoint.name);
      forumPost = true;
      answer = await send(true);
      if (isFailure(answer)) return outcomeOfFailure(answer);
    } else if (code === CODES.notAForum && forumPost) {
      // The channel is no longer a forum: post plainly from the next try on.
      forums.delete(endpoint.name);
      return { status: 'failed', code: 'not_a_forum', reason: 'the webhook channel is no longer a forum' };
    }
  }
  if (!isSuccess(answer)) return refusal(answer, reply);
  const created = parseMessage(answer);
  const bucket = bucketOf(answer);
  return {
    status: 'delivered',
    ...(created.id === undefined ? {} : { platformMessageId: created.id }),
    // A forum post is a thread of its own: replies go into it, edits are made in it.
    ...(forumPost && created.channelId !== undefined
      ? { threadId: created.channelId, channelId: created.channelId }
      : {}),
    ...(reply && threadId !== undefined ? { channelId: threadId } : {}),
    ...(bucket === undefined ? {} : { bucket }),
  };
}

function parseMessage(response: WebhookResponse): { id?: string; channelId?: string } {
  try {
    const parsed = JSON.parse(response.body) as { id?: unknown; channel_id?: unknown };
    return {
      ...(typeof parsed.id === 'string' ? { id: parsed.id } : {}),
      ...(typeof parsed.channel_id === 'string' ? { channelId: parsed.channel_id } : {}),
    };
  } catch {
    return {};
  }
}

/** `…/messages/{id}`, in the thread the message lives in when it is in one. */
function messageUrl(endpoint: WebhookEndpoint, reference: MessageReference): string {
  const thread = reference.channelId ?? reference.threadId;
  return withQuery(`${baseUrl(endpoint)}/messages/${encodeURIComponent(reference.messageId)}`, {
    thread_id: thread,
  });
}

/** Edits in place (`PATCH …/messages/{id}`): the same body without the webhook's name and avatar. */
async function edit(
  endpoint: WebhookEndpoint,
  reference: MessageReference,
  message: Message,
  context: KindContext,
): Promise<DeliveryOutcome> {
  const { username: _u, avatar_url: _a, ...body } = renderDiscordWebhookMessage(message);
  const answer = await context.http.send({
    method: 'PATCH',
    url: messageUrl(endpoint, reference),
    body: JSON.stringify(body),
  });
  if (isFailure(answer)) return outcomeOfFailure(answer);
  if (isSuccess(answer)) {
    const bucket = bucketOf(answer);
    return { status: 'delivered', platformMessageId: reference.messageId, ...(bucket ? { bucket } : {}) };
  }
  if (errorOf(answer).code === CODES.unknownMessage) {
    const reason = `the message is gone: ${quoted(answer)}`;
    return { status: 'rejected', code: 'unknown_message', reason, scope: 'message' };
  }
  return refusal(answer, false);
}

/** Deletes (`DELETE …/messages/{id}`); a message already gone is done. */
async function remove(
  endpoint: WebhookEndpoint,
  reference: MessageReference,
  context: KindContext,
): Promise<DeliveryOutcome> {
  const answer = await context.http.send({ method: 'DELETE', url: messageUrl(endpoint, reference) });
  if (isFailure(answer)) return outcomeOfFailure(answer);
  if (isSuccess(answer) || errorOf(answer).code === CODES.unknownMessage) {
    return { status: 'delivered', platformMessageId: reference.messageId };
  }
  if (answer.status === 403) {
    return { status: 'rejected', code: DELETE_REFUSED, reason: quoted(answer), scope: 'message' };
  }
  return refusal(answer, false);
}

/**
 * Discord webhooks. Pacing: each webhook's own bucket as Discord states it with every answer
 * (`X-RateLimit-Remaining`/`-Reset-After`: Discord publishes no fixed number and says not to hard
 * code one), and at most 50 requests in any second across them all: Discord's global limit, which
 * "if no authorization header is provided … is applied to the IP address" (docs/webhooks.md).
 */
export const DISCORD_WEBHOOK: WebhookKind = {
  kind: 'discord',
  platform: 'discord-webhook',
  title: 'Discord webhook',
  recognizes: (url) => PATH.test(url.pathname),
  edits: true,
  takesSender: true,
  pacing: { global: { limit: 50, windowMs: 1_000 } },
  mentions: DISCORD_MENTIONS,
  redact(url) {
    const match = PATH.exec(url.pathname);
    return match ? `${url.origin}/api/webhooks/${match[1]}/****` : `${url.origin}/****`;
  },
  render: renderDiscordWebhookMessage,
  // `learned`: the webhooks found to post into a forum channel (each item becomes a forum post).
  post: (endpoint, destination, message, _options, context) =>
    post(endpoint, destination, message, context.learned, context),
  edit: (endpoint, _destination, reference, message, _item, context) =>
    edit(endpoint, reference, message, context),
  remove: (endpoint, _destination, reference, context) => remove(endpoint, reference, context),
};
