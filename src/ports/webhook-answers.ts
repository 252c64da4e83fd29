/**
 * What a webhook's answer means for a delivery, shared by every webhook kind: the outbox retries,
 * waits and pauses exactly as for a channel (see DeliveryOutcome).
 */
import type { DeliveryOutcome } from './chat-adapter.js';
import type { KindContext, WebhookEndpoint, WebhookFailure, WebhookResponse } from './webhooks.js';

/** The longest piece of a receiver's error body quoted in a reason (status, logs). */
const QUOTED_MAX = 200;

export function isFailure(answer: WebhookResponse | WebhookFailure): answer is WebhookFailure {
  return 'failure' in answer;
}

export function isSuccess(response: WebhookResponse): boolean {
  return response.status >= 200 && response.status < 300;
}

/** A header's value as one string (the first when it was repeated). */
export function header(response: WebhookResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** What the receiver said, short and on one line, for a reason; any URL in it is left out. */
export function quoted(response: WebhookResponse): string {
  const text = response.body
    .replace(/https?:\/\/\S+/g, '<URL>')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > QUOTED_MAX ? `${text.slice(0, QUOTED_MAX)}…` : text;
}

/** `Retry-After` in ms (seconds, or an HTTP date), when the answer says. */
export function retryAfterMs(response: WebhookResponse, now = Date.now()): number | undefined {
  const value = header(response, 'retry-after');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds * 1000));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(1, at - now);
}

/** No answer: transient either way. A request that may have been received is said to be so. */
export function outcomeOfFailure(failure: WebhookFailure): DeliveryOutcome {
  return {
    status: 'failed',
    code: failure.sent ? 'no_answer' : 'network',
    reason: failure.sent
      ? `the webhook did not answer (${failure.failure}); it may have received the message`
      : `could not reach the webhook (${failure.failure})`,
  };
}

/** How a kind reads a refused request: which 4xx are this message's fault rather than the webhook's. */
export interface RefusalRules {
  /** What the webhook is, for reasons: `Teams webhook`. */
  title: string;
  /** Statuses that refuse this one message (its body), which is then dropped; others pause the webhook. */
  messageStatuses: readonly number[];
}

/**
 * The outcome of a non-2xx answer, as for channels: a 429 waits the receiver's Retry-After, a 5xx
 * or 408 is retried with backoff, a refused body drops the message, and any other 4xx (the webhook
 * was deleted, disabled or its secret changed) pauses its subscriptions with the reason, for
 * `directory-bot webhook list`.
 */
export function outcomeOfRefusal(response: WebhookResponse, rules: RefusalRules): DeliveryOutcome {
  const { status } = response;
  const said = quoted(response);
  const reason = `the ${rules.title} answered ${status}${said === '' ? '' : `: ${said}`}`;
  if (status === 429) {
    return { status: 'failed', code: 'rate_limited', reason, retryAfterMs: retryAfterMs(response) ?? 1000 };
  }
  if (status >= 500 || status === 408) return { status: 'failed', code: 'server_error', reason };
  if (rules.messageStatuses.includes(status)) {
    return { status: 'rejected', code: 'invalid_body', reason, scope: 'message' };
  }
  if (status === 404 || status === 410) {
    return {
      status: 'rejected',
      code: 'webhook_gone',
      reason: `${reason} (the webhook was deleted: create a new one and update its URL)`,
      scope: 'destination',
    };
  }
  return { status: 'rejected', code: 'webhook_refused', reason, scope: 'destination' };
}

/** `https://host/first/…/****`: the origin and the first path segments, the rest masked. */
export function maskedUrl(url: URL, keep = 1): string {
  const parts = url.pathname.split('/').filter(Boolean);
  const shown = parts.slice(0, keep).join('/');
  return `${url.origin}/${shown}${parts.length > keep ? '/****' : ''}`;
}

/**
 * Posts `body` (a JSON document) to a webhook that answers without a message id (Slack, Teams,
 * Mattermost): delivered on a 2xx, with no id, so its message is never edited; no answer is
 * transient; any other answer is `refused`'s to read.
 */
export async function postWithoutId(
  endpoint: WebhookEndpoint,
  body: unknown,
  context: KindContext,
  refused: (response: WebhookResponse) => DeliveryOutcome,
): Promise<DeliveryOutcome> {
  const answer = await context.http.send({ method: 'POST', url: endpoint.url, body: JSON.stringify(body) });
  if (isFailure(answer)) return outcomeOfFailure(answer);
  if (isSuccess(answer)) return { status: 'delivered' };
  return refused(answer);
}
