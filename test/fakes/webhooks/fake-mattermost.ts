import { randomBytes } from 'node:crypto';
import { type FakeAnswer, type FakeRequest, FakeWebhookServer } from './webhook-server.js';

/** The Slack-compatible attachment fields Mattermost reads (developers.mattermost.com, message attachments). */
const ATTACHMENT_FIELDS = new Set([
  'fallback',
  'color',
  'pretext',
  'text',
  'author_name',
  'author_link',
  'author_icon',
  'title',
  'title_link',
  'fields',
  'image_url',
  'thumb_url',
  'footer',
  'footer_icon',
  'ts',
  'id',
  'actions',
]);
const PAYLOAD_FIELDS = new Set([
  'text',
  'channel',
  'username',
  'icon_url',
  'icon_emoji',
  'attachments',
  'props',
  'type',
  'priority',
]);
/** A post's message: the server's default maximum, 16,383 characters. */
const TEXT_MAX = 16_383;

/** Who a post notifies: `@name`, `@channel`, `@all`, `@here` in its message text (attachments notify nobody). */
export function mattermostPings(text: string): string[] {
  return [...text.matchAll(/(?:^|[^\p{L}\p{N}_.-])@([a-z0-9][a-z0-9._-]*)/gu)].map((m) =>
    (m[1] ?? '').replace(/[._-]+$/, ''),
  );
}

/**
 * A fake Mattermost server's incoming webhooks (`POST /hooks/<id>`): the payload checked against
 * the fields Mattermost documents for incoming webhooks and message attachments, `ok` on success,
 * an unknown hook answered 400 as Mattermost does, and the server's API rate limiting as its
 * defaults set it when turned on (10 a second, bursts of 100; 429 past them).
 */
export class FakeMattermost extends FakeWebhookServer {
  readonly posts: { hook: string; body: Record<string, unknown>; pinged: string[] }[] = [];
  readonly #hooks = new Set<string>();
  #bucket = { tokens: 100, at: 0 };

  addWebhook(): { url: string; id: string } {
    const id = randomBytes(20)
      .toString('base64')
      .replace(/[^a-z0-9]/g, '')
      .toLowerCase()
      .padEnd(26, 'x')
      .slice(0, 26);
    this.#hooks.add(id);
    return { url: `${this.url}/hooks/${id}`, id };
  }

  deleteWebhook(id: string): void {
    this.#hooks.delete(id);
  }

  protected answer(request: FakeRequest): FakeAnswer {
    const id = /^\/hooks\/([a-z0-9]{26})\/?$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || id === undefined || !this.#hooks.has(id)) {
      return {
        status: 400,
        body: { id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 },
      };
    }
    this.#bucket.tokens = Math.min(100, this.#bucket.tokens + ((request.now - this.#bucket.at) / 1000) * 10);
    this.#bucket.at = request.now;
    if (this.#bucket.tokens < 1) {
      this.problems.push('server rate limit exceeded');
      return { status: 429, body: { message: 'too many requests' }, headers: { 'retry-after': '1' } };
    }
    this.#bucket.tokens -= 1;
    const problems = payloadProblems(request.body);
    if (problems.length > 0) {
      this.problems.push(...problems);
      return {
        status: 400,
        body: { id: 'web.incoming_webhook.parse.app_error', message: problems.join('; '), status_code: 400 },
      };
    }
    const body = request.body as Record<string, unknown>;
    const text = typeof body['text'] === 'string' ? body['text'] : '';
    this.posts.push({ hook: id, body, pinged: mattermostPings(text) });
    return { status: 200, body: 'ok' };
  }
}

function payloadProblems(body: unknown): string[] {
  if (body === null || typeof body !== 'object') return ['the body is not a JSON object'];
  const payload = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(payload)) if (!PAYLOAD_FIELDS.has(key)) problems.push(`unknown field ${key}`);
  const text = payload['text'];
  const attachments = payload['attachments'];
  if ((typeof text !== 'string' || text === '') && !Array.isArray(attachments))
    problems.push('neither text nor attachments');
  if (typeof text === 'string' && text.length > TEXT_MAX) problems.push(`text over ${TEXT_MAX}`);
  for (const [index, raw] of (Array.isArray(attachments) ? attachments : []).entries()) {
    if (raw === null || typeof raw !== 'object') {
      problems.push(`attachment ${index} is not an object`);
      continue;
    }
    const attachment = raw as Record<string, unknown>;
    for (const key of Object.keys(attachment))
      if (!ATTACHMENT_FIELDS.has(key)) problems.push(`attachment field ${key}`);
    for (const key of ['fallback', 'title', 'text', 'author_name', 'footer']) {
      if (attachment[key] !== undefined && typeof attachment[key] !== 'string')
        problems.push(`attachment ${key} is not text`);
    }
    const size = JSON.stringify(attachment).length;
    if (size > TEXT_MAX) problems.push(`attachment ${index} of ${size} characters`);
    for (const field of Array.isArray(attachment['fields']) ? attachment['fields'] : []) {
      const f = field as Record<string, unknown>;
      if (
        typeof f['title'] !== 'string' ||
        typeof f['value'] !== 'string' ||
        typeof f['short'] !== 'boolean'
      ) {
        problems.push('a field needs title, value (text) and short (true or false)');
      }
    }
  }
  return problems;
}
