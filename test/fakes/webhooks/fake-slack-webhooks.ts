import { blockKitViolations } from '../slack/block-kit-limits.js';
import { type FakeAnswer, type FakeRequest, FakeWebhookServer } from './webhook-server.js';

/** What a Slack incoming webhook payload may carry (docs: text, blocks, attachments, thread_ts, mrkdwn, unfurls). */
const KNOWN_KEYS = new Set([
  'text',
  'blocks',
  'attachments',
  'thread_ts',
  'mrkdwn',
  'unfurl_links',
  'unfurl_media',
]);

/** Who a payload notifies: Slack's mention markup anywhere in its text. */
export function slackPings(raw: string): string[] {
  const text = raw.replace(/\\u003c/g, '<').replace(/\\u003e/g, '>');
  // A mention in the notification text and again in the blocks notifies once.
  return unique([
    ...[...text.matchAll(/<!subteam\^([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((m) => `group:${m[1]}`),
    ...[...text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g)].map((m) => `user:${m[1]}`),
    ...[...text.matchAll(/<!(here|channel|everyone)(?:\|[^>]*)?>/g)].map((m) => `everyone:${m[1]}`),
  ]);
}

const unique = (values: string[]) => [...new Set(values)];

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A fake Slack for incoming webhooks (`POST /services/T…/B…/…`): Block Kit checked against the
 * limits Slack enforces (`invalid_blocks`), "1 per second, short bursts >1 allowed" per webhook
 * (a bucket of 3, refilled at 1 a second; 429 with Retry-After past it), `ok` or Slack's error
 * words as the body, and the mentions each post made.
 */
export class FakeSlackWebhooks extends FakeWebhookServer {
  readonly posts: { webhook: string; body: Record<string, unknown>; pinged: string[] }[] = [];
  readonly #webhooks = new Map<string, { team: string; removed: boolean }>();
  readonly #buckets = new Map<string, Bucket>();
  #next = 1;

  addWebhook(team = 'T0000WEB1'): { url: string; path: string } {
    const path = `/services/${team}/B${String(1000 + this.#next).padStart(8, '0')}/s3cr3t${this.#next}`;
    this.#next += 1;
    this.#webhooks.set(path, { team, removed: false });
    return { url: `${this.url}${path}`, path };
  }

  /** The app that owned the webhook was removed: `no_service` from now on. */
  removeWebhook(path: string): void {
    const webhook = this.#webhooks.get(path);
    if (webhook) webhook.removed = true;
  }

  protected answer(request: FakeRequest): FakeAnswer {
    const webhook = this.#webhooks.get(request.path.replace(/\/$/, ''));
    if (request.method !== 'POST') return { status: 405, body: 'invalid_method' };
    if (webhook === undefined || webhook.removed) return { status: 404, body: 'no_service' };
    const bucket = this.#buckets.get(request.path) ?? { tokens: 3, at: request.now };
    bucket.tokens = Math.min(3, bucket.tokens + (request.now - bucket.at) / 1000);
    bucket.at = request.now;
    this.#buckets.set(request.path, bucket);
    if (bucket.tokens < 1) {
      this.problems.push(`webhook ${request.path} over 1 a second`);
      return { status: 429, body: 'rate_limited', headers: { 'retry-after': '1' } };
    }
    bucket.tokens -= 1;
    const body = request.body as Record<string, unknown> | undefined;
    if (body === undefined || typeof body !== 'object') return { status: 400, body: 'invalid_payload' };
    const problems: string[] = [];
    for (const key of Object.keys(body)) if (!KNOWN_KEYS.has(key)) problems.push(`unknown field ${key}`);
    if (typeof body['text'] !== 'string' && body['blocks'] === undefined)
      return { status: 400, body: 'no_text' };
    if (body['blocks'] !== undefined) problems.push(...blockKitViolations(body['blocks']));
    if (problems.length > 0) {
      this.problems.push(...problems);
      return { status: 400, body: 'invalid_blocks' };
    }
    this.posts.push({ webhook: request.path, body, pinged: slackPings(request.raw) });
    return { status: 200, body: 'ok' };
  }
}
