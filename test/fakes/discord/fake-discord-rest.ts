import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { componentProblems } from './component-limits.js';
import { FakeDiscordDirectMessages } from './direct-messages.js';
import { commandsInSpecForm, REQUEST_SCHEMAS, validateAgainstSpec } from './discord-spec.js';
import { modalProblems } from './fake-discord-modals.js';
import { FakeDiscordOAuth } from './fake-discord-oauth.js';
import { FakeDiscordThreads } from './fake-discord-threads.js';
import { FakeDiscordEdits } from './message-edits.js';

/** One request the fake received, after routing. */
export interface RecordedCall {
  method: string;
  /** Path after `/api/v10`, e.g. `/channels/123/messages`. */
  path: string;
  route: string;
  body: unknown;
  headers: IncomingMessage['headers'];
  status: number;
  /** When the fake answered, on its clock (`now`), so tests can check a Retry-After was honoured. */
  at: number;
  /** On a 429: the `X-RateLimit-Scope` it carried (`global`, or `user` for a route's bucket). */
  rateLimitScope?: string;
}

export interface FakeDiscordRestOptions {
  token?: string;
  /** Per-route bucket: `limit` requests per `windowMs` per major parameter (Discord: 5 per 5 s for messages). */
  bucket?: { limit: number; windowMs: number };
  /** Bot-wide requests per second before a global 429 (Discord: 50). */
  globalPerSecond?: number;
  now?: () => number;
  /** The application's OAuth2 client (sign-in to the control panel). Default `100000000000000001` / `discord-secret`. */
  oauthClient?: { id: string; secret: string };
}

type ChannelState = 'ok' | 'missing_access' | 'missing_permissions';

/** What Discord answers a bot about a channel or server it cannot see, a kicked bot included. */
const MISSING_ACCESS = { message: 'Missing Access', code: 50001 };

interface Route {
  method: string;
  pattern: RegExp;
  route: string;
  /** Interaction and webhook-token routes are exempt from the global limit and need no bot token. */
  interaction?: boolean;
  handle: (match: RegExpExecArray, body: unknown) => { status: number; body?: unknown };
}

const DOC_LIMITS = {
  content: 2000,
  total: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  name: 256,
  value: 1024,
  footer: 2048,
  author: 256,
  embeds: 10,
};

interface Embed {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
  author?: { name: string };
}

/** The documented limits the OpenAPI spec does not carry (content 2000, 6000 across embeds). */
export function documentedLimitProblems(body: {
  content?: string | null;
  embeds?: Embed[] | null;
}): string[] {
  const problems: string[] = [];
  if ((body.content ?? '').length > DOC_LIMITS.content) problems.push('content over 2000');
  const embeds = body.embeds ?? [];
  if (embeds.length > DOC_LIMITS.embeds) problems.push('more than 10 embeds');
  let total = 0;
  for (const embed of embeds) {
    const check = (text: string | undefined, max: number, what: string) => {
      const length = (text ?? '').trim().length;
      total += length;
      if (length > max) problems.push(`${what} over ${max}`);
    };
    check(embed.title, DOC_LIMITS.title, 'title');
    check(embed.description, DOC_LIMITS.description, 'description');
    check(embed.footer?.text, DOC_LIMITS.footer, 'footer');
    check(embed.author?.name, DOC_LIMITS.author, 'author');
    if ((embed.fields ?? []).length > DOC_LIMITS.fields) problems.push('more than 25 fields');
    for (const field of embed.fields ?? []) {
      if (!field.name.trim() || !field.value.trim()) problems.push('empty field');
      check(field.name, DOC_LIMITS.name, 'field name');
      check(field.value, DOC_LIMITS.value, 'field value');
    }
  }
  if (total > DOC_LIMITS.total) problems.push(`embeds total ${total} over 6000`);
  return problems;
}

/**
 * A fake Discord REST API (v10) on 127.0.0.1 for the real discord.js REST client: per-route
 * buckets with X-RateLimit-* headers, a global limit, real 429 and error bodies, channels that
 * can be made inaccessible or deleted, nonce deduplication, and every request body checked
 * against the official OpenAPI spec and the documented limits (problems are collected, and a
 * body that breaks the spec is answered 400 like Discord's 50035).
 */
export class FakeDiscordRest {
  readonly calls: RecordedCall[] = [];
  /** Spec or limit violations, and messages sent without `allowed_mentions: { parse: [] }`. */
  readonly problems: string[] = [];
  readonly messages = new Map<string, { id: string; body: Record<string, unknown> }[]>();
  /** `PATCH` and `DELETE /channels/{id}/messages/{id}`: edits and deletions of those messages. */
  readonly edits = new FakeDiscordEdits(
    this.messages,
    (body) => this.#checkBody(REQUEST_SCHEMAS.editMessage, body, 'edit message', true),
    this.problems,
  );
  gatewayUrl = 'ws://127.0.0.1:1';
  /** OAuth2 sign-in, people, servers' roles and channels' overwrites (fake-discord-oauth.ts). */
  readonly oauth: FakeDiscordOAuth;
  commands: { global: unknown[]; guilds: Map<string, unknown[]> } = { global: [], guilds: new Map() };
  /** `POST /users/@me/channels`: DM channels opened, users who refuse DMs (direct-messages.ts). */
  readonly dms = new FakeDiscordDirectMessages({
    newId: () => this.#id(),
    addChannel: (id) => this.addChannel(id),
    refuseEveryPost: (id, error) => this.failNextMessage(id, error, Number.POSITIVE_INFINITY),
    problems: this.problems,
  });

  /** Threads started from messages, archival, thread permissions (fake-discord-threads.ts). */
  readonly threads = new FakeDiscordThreads({
    hasMessage: (channelId, messageId) =>
      (this.messages.get(channelId) ?? []).some((m) => m.id === messageId),
    hasChannel: (channelId) => this.#channels.has(channelId),
    addChannel: (id) => this.addChannel(id),
    addMessage: (channelId, id, body) => {
      const list = this.messages.get(channelId) ?? [];
      list.push({ id, body });
      this.messages.set(channelId, list);
    },
    newId: () => this.#id(),
    problems: this.problems,
  });

  readonly #server: Server;
  readonly #options: Required<Omit<FakeDiscordRestOptions, 'token' | 'oauthClient'>> & { token?: string };
  readonly #channels = new Map<string, ChannelState>();
  /** The server each channel added with one belongs to. */
  readonly #channelGuilds = new Map<string, string>();
  /** Servers the bot is in (`member`) or was removed from (`removed`); absent: unknown or deleted. */
  readonly #guilds = new Map<string, 'member' | 'removed'>();
  readonly #buckets = new Map<string, { count: number; resetAt: number }>();
  readonly #forced429 = new Map<
    string,
    { remaining: number; retryAfter: number; global: boolean; route: string }
  >();
  /** Answers withheld until released: the request was handled, the bot just never hears back. */
  #held: { method: string; route: string; released: Promise<void>; release: () => void }[] = [];
  readonly #forcedErrors = new Map<
    string,
    { remaining: number; status: number; code: number; message: string }
  >();
  readonly #forcedForumErrors = new Map<
    string,
    { remaining: number; status: number; code: number; message: string }
  >();
  readonly #forcedGuildErrors = new Map<
    string,
    { remaining: number; status: number; code: number; message: string }
  >();
  readonly #nonces = new Map<string, { id: string }>();
  #global = { count: 0, resetAt: 0 };
  #nextId = 200000000000000000n;
  #waiters: { predicate: (call: RecordedCall) => boolean; resolve: (call: RecordedCall) => void }[] = [];
  readonly #routes: Route[];

  constructor(options: FakeDiscordRestOptions = {}) {
    this.#options = {
      bucket: options.bucket ?? { limit: 5, windowMs: 5_000 },
      globalPerSecond: options.globalPerSecond ?? 50,
      now: options.now ?? Date.now,
      ...(options.token === undefined ? {} : { token: options.token }),
    };
    this.oauth = new FakeDiscordOAuth(
      {
        id: options.oauthClient?.id ?? '100000000000000001',
        secret: options.oauthClient?.secret ?? 'discord-secret',
        redirectUris: [],
      },
      this.problems,
    );
    this.#server = createServer((req, res) => void this.#serve(req, res));
    this.#routes = this.#buildRoutes();
  }

  /** Starts listening; `url` is what discord.js takes as its REST `api` option. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/api`;
  }

  async close(): Promise<void> {
    for (const held of this.#held.splice(0)) held.release();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The bot token the fake accepts from now on (a reset token: the old one gets 401). */
  setToken(token: string): void {
    this.#options.token = token;
  }

  /** A channel the bot can post to (or not, by `state`), in server `guildId` when given (the bot is in it). */
  addChannel(id: string, state: ChannelState = 'ok', guildId?: string): void {
    this.#channels.set(id, state);
    if (guildId === undefined) return;
    this.#channelGuilds.set(id, guildId);
    if (!this.#guilds.has(guildId)) this.#guilds.set(guildId, 'member');
  }

  /**
   * The bot is kicked from a server, and no gateway tells it: like Discord, every post to a
   * channel of the server and GET /guilds/{id} answer 403 Missing Access (50001) from now on.
   */
  kickFromGuild(guildId: string): void {
    this.#guilds.set(guildId, 'removed');
  }

  /** The bot is added back to a server it was kicked from: its channels take posts again. */
  addToGuild(guildId: string): void {
    this.#guilds.set(guildId, 'member');
  }

  /** A server is deleted: its channels answer 404 Unknown Channel, the server 404 Unknown Guild. */
  deleteGuild(guildId: string): void {
    this.#guilds.delete(guildId);
    for (const [channel, guild] of this.#channelGuilds) if (guild === guildId) this.#channels.delete(channel);
  }

  /** Deletes a channel: later posts get 404 Unknown Channel (10003). */
  deleteChannel(id: string): void {
    this.#channels.delete(id);
  }

  /**
   * The next `count` requests to a channel's messages (or to another of its routes, e.g.
   * `/channels/:id/messages/:id` for edits) answer 429 (a storm), without touching the bucket.
   */
  rateLimitChannel(
    channelId: string,
    count: number,
    retryAfterSeconds: number,
    global = false,
    route = '/channels/:id/messages',
  ): void {
    this.#forced429.set(channelId, { remaining: count, retryAfter: retryAfterSeconds, global, route });
  }

  /**
   * The next `method` request to `route` is carried out (a message posted, a forum post made) but
   * its answer is held until `release()`: the bot's request times out not knowing it went through.
   */
  holdNextAnswer(method: string, route: string): { release: () => void } {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#held.push({ method, route, released, release });
    return { release };
  }

  /**
   * The next `times` posts to a channel's messages answer `status` with a Discord JSON error
   * (default 400 / 50035 Invalid Form Body), whatever the body: a message Discord refuses.
   */
  failNextMessage(
    channelId: string,
    error: { status?: number; code?: number; message?: string } = {},
    times = 1,
  ): void {
    this.#forcedErrors.set(channelId, {
      remaining: times,
      status: error.status ?? 400,
      code: error.code ?? 50035,
      message: error.message ?? 'Invalid Form Body',
    });
  }

  /** The next forum post (`POST /channels/{id}/threads`) to a channel answers `error`, whatever the channel is. */
  failNextForumPost(channelId: string, error: { status: number; code: number; message: string }): void {
    this.#forcedForumErrors.set(channelId, { remaining: 1, ...error });
  }

  #forcedAnswer(
    forced: Map<string, { remaining: number; status: number; code: number; message: string }>,
    id: string,
  ) {
    const next = forced.get(id);
    if (next === undefined || next.remaining <= 0) return undefined;
    next.remaining -= 1;
    return { status: next.status, body: { message: next.message, code: next.code } };
  }

  /** The next `times` GET /guilds/{id} for a server answer `status` with a Discord JSON error (an outage). */
  failNextGuild(guildId: string, error: { status: number; code: number; message: string }, times = 1): void {
    this.#forcedGuildErrors.set(guildId, { remaining: times, ...error });
  }

  callsTo(method: string, route: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method && c.route === route);
  }

  /** Resolves with the first call (already received or future) that matches. */
  waitForCall(predicate: (call: RecordedCall) => boolean): Promise<RecordedCall> {
    const seen = this.calls.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ predicate, resolve }));
  }

  #id(): string {
    this.#nextId += 1n;
    return this.#nextId.toString();
  }

  #record(call: RecordedCall): void {
    this.calls.push(call);
    const ready = this.#waiters.filter((w) => w.predicate(call));
    this.#waiters = this.#waiters.filter((w) => !w.predicate(call));
    for (const waiter of ready) waiter.resolve(call);
  }

  #checkBody(schema: string | object, body: unknown, what: string, mentions: boolean): boolean {
    const errors = validateAgainstSpec(schema, body);
    const limits = [
      ...documentedLimitProblems((body ?? {}) as Parameters<typeof documentedLimitProblems>[0]),
      ...componentProblems((body ?? {}) as { components?: unknown }),
    ];
    for (const problem of [...errors, ...limits]) this.problems.push(`${what}: ${problem}`);
    if (mentions) {
      const allowed = (body as { allowed_mentions?: { parse?: unknown[] } } | null)?.allowed_mentions;
      if (!allowed || !Array.isArray(allowed.parse) || allowed.parse.length !== 0) {
        this.problems.push(`${what}: allowed_mentions is not { parse: [] }`);
      }
    }
    return errors.length === 0 && limits.length === 0;
  }

  #invalidBody() {
    return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: {} } };
  }

  #buildRoutes(): Route[] {
    const snowflake = '(\\d{17,20})';
    return [
      {
        method: 'GET',
        pattern: /^\/gateway\/bot$/,
        route: '/gateway/bot',
        handle: () => ({
          status: 200,
          body: {
            url: this.gatewayUrl,
            shards: 1,
            session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
          },
        }),
      },
      {
        // Who the bot token belongs to: what the adapter asks at start-up to check the token.
        method: 'GET',
        pattern: /^\/users\/@me$/,
        route: '/users/@me',
        handle: () => ({
          status: 200,
          body: { id: '100000000000000099', username: 'directory-bot', discriminator: '0', bot: true },
        }),
      },
      {
        method: 'POST',
        pattern: /^\/users\/@me\/channels$/,
        route: '/users/@me/channels',
        handle: (_match, body) => this.dms.open(body),
      },
      {
        // The bot asks when every channel of a server refused it: still in it, or removed?
        method: 'GET',
        pattern: new RegExp(`^/guilds/${snowflake}$`),
        route: '/guilds/:id',
        handle: (match) => this.#getGuild(match[1]!),
      },
      {
        // The servers the bot is in (the control panel's installations).
        method: 'GET',
        pattern: /^\/users\/@me\/guilds$/,
        route: '/users/@me/guilds',
        handle: () => ({
          status: 200,
          body: [...this.#guilds]
            .filter(([, state]) => state === 'member')
            .map(([id]) => ({
              id,
              name: this.oauth.guilds.get(id)?.name ?? `Server ${id}`,
              icon: null,
              banner: null,
              owner: false,
              permissions: '0',
              features: [],
            })),
        }),
      },
      {
        method: 'GET',
        pattern: new RegExp(`^/guilds/${snowflake}/roles$`),
        route: '/guilds/:id/roles',
        handle: (match) => this.oauth.roles(match[1]!),
      },
      {
        method: 'GET',
        pattern: new RegExp(`^/guilds/${snowflake}/members/${snowflake}$`),
        route: '/guilds/:id/members/:id',
        handle: (match) => this.oauth.member(match[1]!, match[2]!),
      },
      {
        method: 'GET',
        pattern: new RegExp(`^/channels/${snowflake}$`),
        route: '/channels/:id',
        handle: (match) => {
          const guild = this.#channelGuilds.get(match[1]!);
          return guild === undefined || !this.#channels.has(match[1]!)
            ? { status: 404, body: { message: 'Unknown Channel', code: 10003 } }
            : this.oauth.channel(match[1]!, guild);
        },
      },
      {
        method: 'POST',
        pattern: new RegExp(`^/channels/${snowflake}/messages$`),
        route: '/channels/:id/messages',
        handle: (match, body) => this.#createMessage(match[1]!, body),
      },
      {
        method: 'PATCH',
        pattern: new RegExp(`^/channels/${snowflake}/messages/${snowflake}$`),
        route: '/channels/:id/messages/:id',
        handle: (match, body) =>
          this.#channelAnswer(match[1]!) ?? this.edits.answer(match[1]!, match[2]!, body),
      },
      {
        method: 'DELETE',
        pattern: new RegExp(`^/channels/${snowflake}/messages/${snowflake}$`),
        route: '/channels/:id/messages/:id',
        handle: (match, body) =>
          this.#channelAnswer(match[1]!) ?? this.edits.delete(match[1]!, match[2]!, body),
      },
      {
        method: 'POST',
        pattern: new RegExp(`^/channels/${snowflake}/messages/${snowflake}/threads$`),
        route: '/channels/:id/messages/:id/threads',
        handle: (match, body) => this.threads.start(match[1]!, match[2]!, body),
      },
      {
        method: 'POST',
        pattern: new RegExp(`^/channels/${snowflake}/threads$`),
        route: '/channels/:id/threads',
        handle: (match, body) =>
          this.#forcedAnswer(this.#forcedForumErrors, match[1]!) ??
          this.threads.startForumPost(match[1]!, body),
      },
      {
        method: 'PATCH',
        pattern: new RegExp(`^/channels/${snowflake}$`),
        route: '/channels/:id',
        handle: (match, body) => this.threads.update(match[1]!, body),
      },
      {
        method: 'POST',
        pattern: /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
        route: '/interactions/:id/:token/callback',
        interaction: true,
        handle: (_match, body) => {
          const data = (body as { type?: number; data?: unknown }).data;
          const isMessage = (body as { type?: number }).type === 4;
          const ok = this.#checkBody(
            REQUEST_SCHEMAS.interactionCallback,
            body,
            'interaction callback',
            false,
          );
          if (isMessage && data)
            this.#checkBody(REQUEST_SCHEMAS.webhookFollowUp, data, 'callback message', true);
          if ((body as { type?: number }).type === 9) this.problems.push(...modalProblems(body));
          return ok ? { status: 204 } : this.#invalidBody();
        },
      },
      {
        method: 'PATCH',
        pattern: new RegExp(`^/webhooks/${snowflake}/([^/]+)/messages/@original$`),
        route: '/webhooks/:id/:token/messages/@original',
        interaction: true,
        handle: (_match, body) =>
          this.#checkBody(REQUEST_SCHEMAS.webhookEdit, body, 'edit original', true)
            ? { status: 200, body: { id: this.#id(), ...(body as object) } }
            : this.#invalidBody(),
      },
      {
        method: 'DELETE',
        pattern: new RegExp(`^/webhooks/${snowflake}/([^/]+)/messages/@original$`),
        route: '/webhooks/:id/:token/messages/@original',
        interaction: true,
        handle: () => ({ status: 204 }),
      },
      {
        method: 'POST',
        pattern: new RegExp(`^/webhooks/${snowflake}/([^/]+)$`),
        route: '/webhooks/:id/:token',
        interaction: true,
        handle: (_match, body) =>
          this.#checkBody(REQUEST_SCHEMAS.webhookFollowUp, body, 'follow-up', true)
            ? { status: 200, body: { id: this.#id(), ...(body as object) } }
            : this.#invalidBody(),
      },
      {
        method: 'PUT',
        pattern: new RegExp(`^/applications/${snowflake}/commands$`),
        route: '/applications/:id/commands',
        handle: (_match, body) => this.#putCommands(body, undefined),
      },
      {
        method: 'PUT',
        pattern: new RegExp(`^/applications/${snowflake}/guilds/${snowflake}/commands$`),
        route: '/applications/:id/guilds/:id/commands',
        handle: (match, body) => this.#putCommands(body, match[2]!),
      },
    ];
  }

  #putCommands(body: unknown, guildId: string | undefined) {
    if (!this.#checkBody(REQUEST_SCHEMAS.bulkCommands, commandsInSpecForm(body), 'bulk commands', false))
      return this.#invalidBody();
    const saved = (body as Record<string, unknown>[]).map((command) => ({ id: this.#id(), ...command }));
    if (guildId) this.commands.guilds.set(guildId, saved);
    else this.commands.global = saved;
    return { status: 200, body: saved };
  }

  #getGuild(guildId: string) {
    const forced = this.#forcedGuildErrors.get(guildId);
    if (forced && forced.remaining > 0) {
      forced.remaining -= 1;
      return { status: forced.status, body: { message: forced.message, code: forced.code } };
    }
    const state = this.#guilds.get(guildId);
    if (state === undefined) return { status: 404, body: { message: 'Unknown Guild', code: 10004 } };
    if (state === 'removed') return { status: 403, body: MISSING_ACCESS };
    return {
      status: 200,
      body: {
        id: guildId,
        name: this.oauth.guilds.get(guildId)?.name ?? `Server ${guildId}`,
        icon: null,
        owner_id: this.oauth.guilds.get(guildId)?.ownerId ?? '100000000000000050',
        roles: [],
      },
    };
  }

  #createMessage(channelId: string, body: unknown) {
    const forced = this.#forcedErrors.get(channelId);
    if (forced && forced.remaining > 0) {
      forced.remaining -= 1;
      const errors = forced.code === 50035 ? { errors: {} } : {};
      return { status: forced.status, body: { message: forced.message, code: forced.code, ...errors } };
    }
    const refused = this.#channelAnswer(channelId);
    if (refused !== undefined) return refused;
    const refusedInThread = this.threads.refusePost(channelId);
    if (refusedInThread !== undefined) return refusedInThread;
    if (!this.#checkBody(REQUEST_SCHEMAS.createMessage, body, 'create message', true))
      return this.#invalidBody();
    const request = body as Record<string, unknown>;
    const nonceKey = `${channelId}:${String(request['nonce'])}`;
    if (request['enforce_nonce'] === true && request['nonce'] !== undefined) {
      const earlier = this.#nonces.get(nonceKey);
      if (earlier) return { status: 200, body: { id: earlier.id, channel_id: channelId, ...request } };
    }
    const id = this.#id();
    if (request['nonce'] !== undefined) this.#nonces.set(nonceKey, { id });
    const list = this.messages.get(channelId) ?? [];
    list.push({ id, body: request });
    this.messages.set(channelId, list);
    return { status: 200, body: { id, channel_id: channelId, ...request } };
  }

  /** What Discord answers about a channel the bot cannot use; undefined when it can. */
  #channelAnswer(channelId: string): { status: number; body: unknown } | undefined {
    const state = this.#channels.get(channelId);
    if (state === undefined) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
    const guild = this.#channelGuilds.get(channelId);
    if (state === 'missing_access' || (guild !== undefined && this.#guilds.get(guild) === 'removed'))
      return { status: 403, body: MISSING_ACCESS };
    if (state === 'missing_permissions') {
      return { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
    }
    return undefined;
  }

  /** Per-route bucket and global limit; returns a 429 to send, or the headers to add. */
  #limit(
    route: Route,
    method: string,
    major: string,
  ): { status: 429; body: unknown; headers: Record<string, string> } | Record<string, string> {
    const now = this.#options.now();
    const forced = this.#forced429.get(major);
    if (forced && forced.route === route.route && forced.remaining > 0) {
      forced.remaining -= 1;
      return this.#tooMany(forced.retryAfter, forced.global);
    }
    if (!route.interaction) {
      if (now >= this.#global.resetAt) this.#global = { count: 0, resetAt: now + 1_000 };
      this.#global.count += 1;
      if (this.#global.count > this.#options.globalPerSecond) {
        return this.#tooMany((this.#global.resetAt - now) / 1000, true);
      }
    }
    if (route.route !== '/channels/:id/messages') return {};
    const { limit, windowMs } = this.#options.bucket;
    const key = `${method}:${route.route}:${major}`;
    let bucket = this.#buckets.get(key);
    if (!bucket || now >= bucket.resetAt) {
      bucket = { count: 0, resetAt: now + windowMs };
      this.#buckets.set(key, bucket);
    }
    const resetAfter = (bucket.resetAt - now) / 1000;
    if (bucket.count >= limit) return this.#tooMany(resetAfter, false, limit);
    bucket.count += 1;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(limit - bucket.count),
      'x-ratelimit-reset': (bucket.resetAt / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      'x-ratelimit-bucket': 'fake-messages-bucket',
    };
  }

  #tooMany(retryAfter: number, global: boolean, limit = 5) {
    const headers: Record<string, string> = {
      'retry-after': String(Math.ceil(retryAfter)),
      'x-ratelimit-scope': global ? 'global' : 'user',
    };
    if (global) headers['x-ratelimit-global'] = 'true';
    else {
      headers['x-ratelimit-limit'] = String(limit);
      headers['x-ratelimit-remaining'] = '0';
      headers['x-ratelimit-reset-after'] = retryAfter.toFixed(3);
      headers['x-ratelimit-bucket'] = 'fake-messages-bucket';
    }
    return {
      status: 429 as const,
      body: { message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global },
      headers,
    };
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const path = decodeURIComponent((req.url ?? '').split('?')[0]!).replace(/^\/api\/v10/, '');
    const query = new URL(req.url ?? '/', 'http://fake').searchParams;
    const oauth =
      method === 'GET' && path === '/oauth2/authorize'
        ? this.oauth.authorize(query)
        : method === 'POST' && path === '/api/oauth2/token'
          ? this.oauth.token(new URLSearchParams(text), req.headers.authorization)
          : method === 'GET'
            ? this.oauth.userRoute(path, query, req.headers.authorization)
            : undefined;
    if (oauth !== undefined) {
      this.#record({
        method,
        path,
        route: path,
        body: text,
        headers: req.headers,
        status: oauth.status,
        at: this.#options.now(),
      });
      const type = oauth.body === undefined ? {} : { 'content-type': 'application/json' };
      res.writeHead(oauth.status, { ...type, ...oauth.headers });
      res.end(oauth.body === undefined ? undefined : JSON.stringify(oauth.body));
      return;
    }
    const reply = (status: number, body?: unknown, headers: Record<string, string> = {}, route = '?') => {
      this.#record({
        method,
        path,
        route,
        body: parsed,
        headers: req.headers,
        status,
        at: this.#options.now(),
        ...(status === 429 && headers['x-ratelimit-scope']
          ? { rateLimitScope: headers['x-ratelimit-scope'] }
          : {}),
      });
      if (body === undefined) res.writeHead(status, headers).end();
      else
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      return reply(400, { code: 50109, message: 'The request body contains invalid JSON.' });
    }

    for (const route of this.#routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (!match) continue;
      if (!route.interaction && this.#options.token !== undefined) {
        if (req.headers.authorization !== `Bot ${this.#options.token}`) {
          return reply(401, { message: '401: Unauthorized', code: 0 }, {}, route.route);
        }
      }
      const limited = this.#limit(route, method, match[1] ?? 'global');
      if ('status' in limited)
        return reply(429, limited.body, limited.headers as Record<string, string>, route.route);
      const result = route.handle(match, parsed);
      const held = this.#held.findIndex((h) => h.method === method && h.route === route.route);
      if (held >= 0) await this.#held.splice(held, 1)[0]!.released;
      return reply(result.status, result.body, limited as Record<string, string>, route.route);
    }
    reply(404, { message: '404: Not Found', code: 0 });
  }
}
