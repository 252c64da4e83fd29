import { createHash, createHmac } from 'node:crypto';
import type {
  DeliveredItem,
  DeliveryOutcome,
  KindContext,
  MentionTarget,
  Message,
  MessageReference,
  WebhookEndpoint,
  WebhookKind,
} from '../../src/ports/index.js';
import {
  isFailure,
  isSuccess,
  maskedUrl,
  outcomeOfFailure,
  outcomeOfRefusal,
} from '../../src/ports/index.js';

/** The payload's version: a change a receiver must know about is a new version, never an edit. */
export const JSON_PAYLOAD_VERSION = 1;

/** The headers every request carries; documented in docs/webhooks.md. */
export const JSON_WEBHOOK_HEADERS = {
  event: 'x-directory-bot-event',
  delivery: 'x-directory-bot-delivery',
  timestamp: 'x-directory-bot-timestamp',
  signature: 'x-directory-bot-signature',
} as const;

export type JsonWebhookEvent = 'item.posted' | 'item.edited' | 'item.deleted';

/**
 * Version 1 of the generic webhook payload (docs/webhook-payload.v1.schema.json). `message` is the
 * platform-neutral message as the bot composed it, every string plain text from the directory
 * (escape it for wherever it is shown); `item.record` is the directory's record as the bot parsed
 * it, or null for a digest. `delivery` stays the same when a request is retried: deduplicate by it.
 */
export interface JsonWebhookPayload {
  version: typeof JSON_PAYLOAD_VERSION;
  event: JsonWebhookEvent;
  delivery: string;
  /** The message this event is about: what `item.posted` created, what an edit or deletion changes. */
  messageId: string;
  webhook: string;
  /** When this request was made (ISO 8601); the signed timestamp header says the same in seconds. */
  sentAt: string;
  item: { key: string; feed: string; record: unknown };
  message: Message | null;
  mentions: MentionTarget[];
}

/** `v1=<hex>`: HMAC-SHA256 under the webhook's secret of `<timestamp>.<body>` (a receiver recomputes it). */
export function jsonWebhookSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The payload for an event; `record` as the delivery carried it (null without one). */
export function jsonWebhookPayload(input: {
  event: JsonWebhookEvent;
  delivery: string;
  messageId: string;
  webhook: string;
  sentAt: Date;
  item: DeliveredItem | undefined;
  message: Message | null;
}): JsonWebhookPayload {
  const key = input.item?.key ?? 'unknown';
  const { mentions, actions, ...message } = input.message ?? { mentions: undefined, actions: undefined };
  // Links only: a command button means something only in a chat where the bot reads the click.
  const links = (actions ?? []).filter((action) => action.kind === 'link');
  return {
    version: JSON_PAYLOAD_VERSION,
    event: input.event,
    delivery: input.delivery,
    messageId: input.messageId,
    webhook: input.webhook,
    sentAt: input.sentAt.toISOString(),
    item: { key, feed: key.split(':')[0] ?? key, record: input.item?.record ?? null },
    message:
      input.message === null
        ? null
        : ({ ...message, ...(links.length > 0 ? { actions: links } : {}) } as Message),
    mentions: mentions ?? [],
  };
}

async function send(
  endpoint: WebhookEndpoint,
  payload: JsonWebhookPayload,
  context: KindContext,
): Promise<DeliveryOutcome> {
  if (endpoint.secret === undefined) {
    return {
      status: 'rejected',
      code: 'no_secret',
      reason: `the JSON webhook "${endpoint.name}" has no signing secret`,
      scope: 'destination',
    };
  }
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.parse(payload.sentAt) / 1000));
  const answer = await context.http.send({
    method: 'POST',
    url: endpoint.url,
    body,
    headers: {
      [JSON_WEBHOOK_HEADERS.event]: payload.event,
      [JSON_WEBHOOK_HEADERS.delivery]: payload.delivery,
      [JSON_WEBHOOK_HEADERS.timestamp]: timestamp,
      [JSON_WEBHOOK_HEADERS.signature]: jsonWebhookSignature(endpoint.secret, timestamp, body),
    },
  });
  if (isFailure(answer)) return outcomeOfFailure(answer);
  if (isSuccess(answer)) return { status: 'delivered', platformMessageId: payload.messageId };
  // As for channels: 5xx and 429 are tried again, any other 4xx pauses the webhook's subscriptions.
  return outcomeOfRefusal(answer, { title: 'JSON webhook', messageStatuses: [] });
}

/** An edit's delivery id: the same edit retried keeps it, a newer state gets another. */
function editDelivery(messageId: string, event: JsonWebhookEvent, message: Message | null): string {
  const digest = createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 16);
  return `${messageId}#${event === 'item.deleted' ? 'delete' : `edit:${digest}`}`;
}

function change(
  event: 'item.edited' | 'item.deleted',
  endpoint: WebhookEndpoint,
  reference: MessageReference,
  message: Message | null,
  item: DeliveredItem | undefined,
  context: KindContext,
): Promise<DeliveryOutcome> {
  const payload = jsonWebhookPayload({
    event,
    delivery: editDelivery(reference.messageId, event, message),
    messageId: reference.messageId,
    webhook: endpoint.name,
    sentAt: new Date(),
    item,
    message,
  });
  return send(endpoint, payload, context);
}

/**
 * The generic JSON webhook, for anything that is not one of the chat platforms: every event is a
 * signed, versioned JSON document (docs/webhooks.md). There is no platform to state limits, so
 * the pace is ours, set to be gentle on a small receiver: 5 a second per webhook (bursts of 10),
 * 20 a second per receiving host.
 */
export const JSON_WEBHOOK: WebhookKind = {
  kind: 'json',
  platform: 'json-webhook',
  title: 'JSON webhook',
  recognizes: () => false,
  workspaceOf: (url) => url.host,
  needsSecret: true,
  edits: true,
  takesSender: true,
  wantsRecords: true,
  pacing: {
    perDestination: { ratePerSecond: 5, burst: 10 },
    perWorkspace: { ratePerSecond: 20, burst: 40 },
  },
  // The receiver decides what a target means: any kind and id are passed on.
  mentions: {
    kinds: ['role', 'group', 'user', 'tag'],
    hint: 'role:, group:, user: or tag:<id>',
    problem: () => undefined,
  },
  redact: (url) => maskedUrl(url),
  render: (message) =>
    jsonWebhookPayload({
      event: 'item.posted',
      delivery: 'json-webhook:example|comments:new:812',
      messageId: 'json-webhook:example|comments:new:812',
      webhook: 'example',
      sentAt: new Date(0),
      item: { key: 'comments:new:812' },
      message,
    }),
  post: (endpoint, _destination, message, options, context) =>
    send(
      endpoint,
      jsonWebhookPayload({
        event: 'item.posted',
        delivery: options.idempotencyKey,
        messageId: options.idempotencyKey,
        webhook: endpoint.name,
        sentAt: new Date(),
        item: options.item,
        message,
      }),
      context,
    ),
  edit: (endpoint, _destination, reference, message, item, context) =>
    change('item.edited', endpoint, reference, message, item, context),
  remove: (endpoint, _destination, reference, context) =>
    change('item.deleted', endpoint, reference, null, undefined, context),
};
