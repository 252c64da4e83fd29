import { validateAgainstSpec } from '../discord/discord-spec.js';
import { documentedLimitProblems } from '../discord/fake-discord-rest.js';
import { type FakeAnswer, type FakeRequest, FakeWebhookServer, FixedWindows } from './webhook-server.js';

/**
 * `POST /webhooks/{id}/{token}` (execute_webhook) takes, per Discord's OpenAPI spec, either body:
 * its requestBody is this anyOf.
 */
export const EXECUTE_WEBHOOK_BODY = {
  anyOf: [
    { $ref: 'discord#/components/schemas/IncomingWebhookRequestPartial' },
    { $ref: 'discord#/components/schemas/IncomingWebhookUpdateRequestPartial' },
  ],
};
/** `PATCH /webhooks/{id}/{token}/messages/{id}` (update_webhook_message). */
export const EDIT_WEBHOOK_MESSAGE_BODY = 'IncomingWebhookUpdateRequestPartial';

/** A message the fake holds, with whom it pinged by Discord's rules. */
export interface WebhookMessage {
  id: string;
  /** The channel it is in: the webhook's, or a forum post's thread. */
  channelId: string;
  body: Record<string, unknown>;
  /** `role:<id>` and `user:<id>` that were notified: mentioned in `content` and allowed. */
  pinged: string[];
  edits: number;
}

interface FakeWebhook {
  id: string;
  token: string;
  channelId: string;
  forum: boolean;
  deleted: boolean;
}

export interface FakeDiscordWebhooksOptions {
  /**
   * Each webhook's bucket as the fake states it in `X-RateLimit-*` (Discord publishes no number
   * for webhooks and says to read the headers; 5 per 2 s is what its webhooks are seen to state).
   */
  bucket?: { limit: number; windowMs: number };
  /** Requests per second from one IP across all webhooks (Discord's documented global limit: 50). */
  globalPerSecond?: number;
  now?: () => number;
}

/**
 * A fake Discord for webhooks: execute (with `wait`, `thread_id`, forum `thread_name`), edit and
 * delete through the webhook's message endpoints, per-webhook buckets stated in headers and the
 * global per-IP limit, Discord's error codes, and every body checked against the vendored OpenAPI
 * spec and the documented message limits.
 */
export class FakeDiscordWebhooks extends FakeWebhookServer {
  readonly messages = new Map<string, WebhookMessage>();
  readonly #webhooks = new Map<string, FakeWebhook>();
  readonly #windows = new FixedWindows();
  readonly #bucket: { limit: number; windowMs: number };
  readonly #globalPerSecond: number;
  #next = 900_000_000_000_000_000n;

  constructor(options: FakeDiscordWebhooksOptions = {}) {
    super(options.now);
    this.#bucket = options.bucket ?? { limit: 5, windowMs: 2_000 };
    this.#globalPerSecond = options.globalPerSecond ?? 50;
  }

  #id(): string {
    this.#next += 1n;
    return this.#next.toString();
  }

  /** A webhook of a text channel (or, `forum`, of a forum channel); its URL is what Discord shows. */
  addWebhook(options: { forum?: boolean } = {}): { id: string; url: string; channelId: string } {
    const webhook = {
      id: this.#id(),
      token: `tok-${this.#id()}_x`,
      channelId: this.#id(),
      forum: options.forum === true,
      deleted: false,
    };
    this.#webhooks.set(webhook.id, webhook);
    return {
      id: webhook.id,
      url: `${this.url}/api/webhooks/${webhook.id}/${webhook.token}`,
      channelId: webhook.channelId,
    };
  }

  /** Someone deleted the webhook in Discord: it answers 404 Unknown Webhook from now on. */
  deleteWebhook(id: string): void {
    const webhook = this.#webhooks.get(id);
    if (webhook) webhook.deleted = true;
  }

  /** The messages a webhook posted, oldest first (top-level and in its forum posts' threads). */
  messagesOf(webhookId: string): WebhookMessage[] {
    const webhook = this.#webhooks.get(webhookId);
    return [...this.messages.values()].filter((m) => (m.body['webhook_id'] as string) === webhook?.id);
  }

  protected answer(request: FakeRequest): FakeAnswer {
    const match = /^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/(\d+))?\/?$/.exec(request.path);
    if (!match) return { status: 404, body: { message: '404: Not Found', code: 0 } };
    const [, id = '', token, messageId] = match;
    const webhook = this.#webhooks.get(id);
    if (webhook === undefined || webhook.deleted)
      return { status: 404, body: { message: 'Unknown Webhook', code: 10015 } };
    if (webhook.token !== token)
      return { status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } };
    const global = this.#windows.take('global', this.#globalPerSecond, 1_000, request.now);
    if (!global.ok) {
      this.problems.push('global rate limit exceeded');
      const seconds = global.resetAfterMs / 1000;
      return {
        status: 429,
        body: { message: 'You are being rate limited.', retry_after: seconds, global: true },
        headers: {
          'retry-after': String(Math.ceil(seconds)),
          'x-ratelimit-global': 'true',
          'x-ratelimit-scope': 'global',
        },
      };
    }
    const bucket = this.#windows.take(
      `webhook:${id}`,
      this.#bucket.limit,
      this.#bucket.windowMs,
      request.now,
    );
    const headers = {
      'x-ratelimit-limit': String(this.#bucket.limit),
      'x-ratelimit-remaining': String(bucket.remaining),
      'x-ratelimit-reset-after': (bucket.resetAfterMs / 1000).toFixed(3),
      'x-ratelimit-bucket': `webhook-${id}`,
    };
    if (!bucket.ok) {
      this.problems.push(`webhook ${id} bucket exceeded`);
      const seconds = bucket.resetAfterMs / 1000;
      return {
        status: 429,
        body: { message: 'You are being rate limited.', retry_after: seconds, global: false },
        headers: { ...headers, 'retry-after': String(Math.ceil(seconds)), 'x-ratelimit-scope': 'user' },
      };
    }
    const answer =
      messageId === undefined
        ? this.#execute(webhook, request)
        : request.method === 'PATCH'
          ? this.#edit(messageId, request)
          : request.method === 'DELETE'
            ? this.#delete(messageId)
            : { status: 405, body: { message: '405: Method Not Allowed', code: 0 } };
    return { ...answer, headers: { ...headers, ...answer.headers } };
  }

  #checkBody(schema: string | object, body: unknown, what: string): string[] {
    const problems = [
      ...validateAgainstSpec(schema, body),
      ...documentedLimitProblems((body ?? {}) as Parameters<typeof documentedLimitProblems>[0]),
    ];
    const record = (body ?? {}) as Record<string, unknown>;
    // Interactive components need a webhook an application owns; ours are made by people.
    if (record['components'] !== undefined) problems.push('components on a webhook no application owns');
    const allowed = record['allowed_mentions'] as { parse?: unknown[] } | undefined;
    if (allowed === undefined || !Array.isArray(allowed.parse) || allowed.parse.length > 0) {
      problems.push('allowed_mentions must say parse: [] (nothing in the text may ping)');
    }
    for (const problem of problems) this.problems.push(`${what}: ${problem}`);
    return problems;
  }

  #execute(webhook: FakeWebhook, request: FakeRequest): FakeAnswer {
    if (request.method !== 'POST')
      return { status: 405, body: { message: '405: Method Not Allowed', code: 0 } };
    const body = (request.body ?? {}) as Record<string, unknown>;
    const problems = this.#checkBody(EXECUTE_WEBHOOK_BODY, request.body, 'execute webhook');
    if (problems.length > 0) return invalidForm(problems);
    const threadId = request.query.get('thread_id') ?? undefined;
    const threadName = typeof body['thread_name'] === 'string' ? body['thread_name'] : undefined;
    let channelId = webhook.channelId;
    if (webhook.forum) {
      if (threadId === undefined && threadName === undefined) {
        return {
          status: 400,
          body: {
            message: 'Webhooks posted to forum channels must have a thread_name or thread_id',
            code: 220001,
          },
        };
      }
      if (threadId !== undefined) {
        const known = [...this.messages.values()].some((m) => m.channelId === threadId);
        if (!known) return { status: 400, body: { message: 'Unknown Channel', code: 10003 } };
        channelId = threadId;
      } else channelId = this.#id();
    } else if (threadName !== undefined) {
      return {
        status: 400,
        body: { message: 'Webhooks can only create threads in forum channels', code: 220003 },
      };
    } else if (threadId !== undefined) {
      return { status: 400, body: { message: 'Unknown Channel', code: 10003 } };
    }
    const message: WebhookMessage = {
      id: this.#id(),
      channelId,
      body: { ...body, webhook_id: webhook.id },
      pinged: pinged(body),
      edits: 0,
    };
    this.messages.set(message.id, message);
    if (request.query.get('wait') !== 'true') return { status: 204 };
    return {
      status: 200,
      body: { id: message.id, channel_id: channelId, webhook_id: webhook.id, type: 0, ...body },
    };
  }

  #edit(messageId: string, request: FakeRequest): FakeAnswer {
    const message = this.messages.get(messageId);
    if (message === undefined) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    const problems = this.#checkBody(EDIT_WEBHOOK_MESSAGE_BODY, request.body, 'edit webhook message');
    if (problems.length > 0) return invalidForm(problems);
    const threadId = request.query.get('thread_id');
    if (
      message.channelId !== (threadId ?? this.#webhooks.get(message.body['webhook_id'] as string)?.channelId)
    ) {
      return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    }
    message.body = { ...message.body, ...(request.body as Record<string, unknown>) };
    message.edits += 1;
    return { status: 200, body: { id: message.id, channel_id: message.channelId, ...message.body } };
  }

  #delete(messageId: string): FakeAnswer {
    if (!this.messages.delete(messageId))
      return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    return { status: 204 };
  }
}

function invalidForm(problems: string[]): FakeAnswer {
  return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: problems } };
}

/**
 * Whom a message notifies, by Discord's rules: a `<@&role>` or `<@user>` in `content` (never in
 * embeds) that `allowed_mentions` lets through, and @everyone/@here only with `parse: ["everyone"]`.
 */
function pinged(body: Record<string, unknown>): string[] {
  const content = typeof body['content'] === 'string' ? body['content'] : '';
  const allowed = (body['allowed_mentions'] ?? { parse: ['users'] }) as {
    parse?: string[];
    roles?: string[];
    users?: string[];
  };
  const parse = allowed.parse ?? [];
  const found: string[] = [];
  for (const [, role] of content.matchAll(/<@&(\d+)>/g)) {
    if (parse.includes('roles') || allowed.roles?.includes(role ?? '')) found.push(`role:${role}`);
  }
  for (const [, user] of content.matchAll(/<@!?(\d+)>/g)) {
    if (parse.includes('users') || allowed.users?.includes(user ?? '')) found.push(`user:${user}`);
  }
  if (parse.includes('everyone') && /@(everyone|here)/.test(content)) found.push('everyone');
  return found;
}
