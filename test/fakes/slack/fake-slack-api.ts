import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { blockKitViolations } from './block-kit-limits.js';
import { FakeUnfurls } from './chat-unfurl.js';
import { FakeMessageUpdates } from './chat-update.js';
import { FakeSlackDirectMessages } from './direct-messages.js';
import { APP_UNINSTALLED, postEvent, tokensRevoked } from './events-api.js';
import { FakeOAuth, type OAuthGrant } from './fake-oauth.js';
import { FakeSlackOidc } from './fake-slack-oidc.js';
import { FakeSlackThreads } from './fake-slack-threads.js';
import { FakeSlackViews } from './fake-slack-views.js';
import { FakeViews, type TierLimit } from './fake-views.js';
import { operationParameters } from './slack-spec.js';

/** One Web API call as the fake saw it. */
export interface RecordedCall {
  method: string;
  token: string | undefined;
  params: Record<string, unknown>;
  status: number;
  response: Record<string, unknown>;
  /** When the fake received the call, on its clock (`now`), so tests can check Retry-After was honoured. */
  at: number;
  /** The fake never answered this call (see `hangNext`); `status` is 0. */
  hung?: boolean;
  /** The client gave up on this hung call: it closed the connection while waiting for the answer. */
  abandoned?: boolean;
}

/** One POST to a response_url. */
export interface RecordedResponse {
  path: string;
  body: Record<string, unknown>;
}

export interface FakeChannel {
  archived: boolean;
  isPrivate: boolean;
  /** The bot must be a member to post (models a workspace without chat:write.public). */
  requiresMembership: boolean;
  /** Team ids whose bot has joined or been invited. */
  members: Set<string>;
}

interface FakeToken {
  teamId: string;
  revoked: boolean;
  /** On the fake's clock; from then on Slack answers `token_expired`. */
  expiresAt?: number;
}

export interface FakeSlackOptions {
  /** Clock for the per-channel limit, in ms. Default `Date.now`; tests pass a manual one. */
  now?: () => number;
  /** Messages a channel may take at once before the 1/s limit applies. Default 1. */
  burst?: number;
  /** The app has `token_rotation_enabled`: installs get 12-hour access tokens and refresh tokens. */
  tokenRotation?: boolean;
  /** The app's credentials, checked when a refresh token is used. Default `client-id`/`client-secret`. */
  clientId?: string;
  clientSecret?: string;
  /** views.publish's tier per workspace; default Tier 4's floor, 100 a minute. */
  viewsPublishTier?: TierLimit;
}

/**
 * A fake Slack Web API on 127.0.0.1, reached through the real `@slack/web-api` client via
 * `slackApiUrl`. It records every call, limits chat.postMessage to one per second per channel
 * (429 + Retry-After), answers with Slack's real error shapes, checks payloads against the Block
 * Kit limits and the official chat.postMessage parameters, and takes response_url posts.
 */
export class FakeSlackApi {
  readonly calls: RecordedCall[] = [];
  readonly responses: RecordedResponse[] = [];
  /** Payload problems found (unknown params, link_names, Block Kit limits). Tests expect it empty. */
  readonly violations: string[] = [];
  readonly channels = new Map<string, FakeChannel>();
  readonly users = new Map<string, { is_admin: boolean; is_owner: boolean; tz?: string }>();
  /** chat.unfurl and the link_shared events that lead to it (chat-unfurl.ts). */
  readonly unfurls = new FakeUnfurls(this.violations);
  /** chat.update and the messages it can change (chat-update.ts). */
  readonly updates = new FakeMessageUpdates(this.violations);
  /** `conversations.open`: the DM channels opened, users without one (direct-messages.ts). */
  readonly dms = new FakeSlackDirectMessages((id) => this.addChannel(id), this.violations);
  /** Messages by channel and replies by parent (`thread_ts`, `reply_broadcast`): fake-slack-threads.ts. */
  readonly threads = new FakeSlackThreads(this.violations);
  private readonly tokens = new Map<string, FakeToken>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly forced: {
    method: string;
    status: number;
    retryAfter?: number;
    remaining: number;
    channel?: string;
    /** A Slack `error` string answered with HTTP 200 and `ok: false`. */
    error?: string;
  }[] = [];
  private readonly hangs: { method: string; remaining: number; channel?: string }[] = [];
  private readonly delays = new Map<string, number>();
  private readonly events = new EventEmitter();
  private readonly allowedPostParams = operationParameters('/chat.postMessage');
  private readonly now: () => number;
  private readonly burst: number;
  private server: Server | undefined;
  /** Set by `close()`, whose dropped connections are not a client giving up. */
  private closing = false;
  private baseUrl = '';
  private responseSeq = 0;
  private readonly appTokens = new Set<string>();
  private readonly sockets = new Set<WebSocket>();
  private wss: WebSocketServer | undefined;
  private envelopeSeq = 0;
  private readonly oauth: FakeOAuth;
  /** views.publish: published Home tabs, checked against the spec, Block Kit and the tier. */
  readonly views: FakeViews;
  /** views.open, chat.postEphemeral and signed view_submission (fake-slack-views.ts). */
  readonly modals: FakeSlackViews;
  /** Sign in with Slack: discovery, consent, openid.connect.token, keys (fake-slack-oidc.ts). */
  readonly oidc: FakeSlackOidc;

  constructor(options: FakeSlackOptions = {}) {
    this.now = options.now ?? Date.now;
    this.burst = options.burst ?? 1;
    this.views = new FakeViews(this.now, this.violations, options.viewsPublishTier);
    this.modals = new FakeSlackViews(this.now, this.violations);
    this.oidc = new FakeSlackOidc(
      { id: options.clientId ?? 'client-id', secret: options.clientSecret ?? 'client-secret' },
      this.violations,
      this.now,
    );
    this.oauth = new FakeOAuth({
      now: this.now,
      issue: (token, teamId, expiresAt) => {
        this.tokens.set(token, { teamId, revoked: false, ...(expiresAt === undefined ? {} : { expiresAt }) });
      },
      clientId: options.clientId ?? 'client-id',
      clientSecret: options.clientSecret ?? 'client-secret',
      rotation: options.tokenRotation ?? false,
      lifetimeSeconds: 12 * 60 * 60,
    });
  }

  /** Codes the consent page would hand out, each with the install it grants. */
  get oauthGrants(): Map<string, OAuthGrant> {
    return this.oauth.grants;
  }

  /** Every access token of `teamId` has expired on Slack's side, whatever either clock says. */
  expireAccessTokens(teamId: string): void {
    const now = this.now();
    for (const known of this.tokens.values()) if (known.teamId === teamId) known.expiresAt = now;
  }

  /** Every refresh token of `teamId` is refused from now on (`invalid_refresh_token`). */
  revokeRefreshTokens(teamId: string): void {
    this.oauth.revokeRefreshTokens(teamId);
  }

  /** The token rotations (oauth.v2.access with grant_type=refresh_token) the fake answered. */
  refreshCalls(): RecordedCall[] {
    return this.callsTo('oauth.v2.access').filter((call) => call.params['grant_type'] === 'refresh_token');
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.route(req, res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.oidc.base = this.baseUrl;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.closing = true;
    for (const socket of this.sockets) socket.terminate();
    this.wss?.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The Web API base for `slackApiUrl`. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  /** A fresh response_url on this fake. */
  responseUrl(): string {
    this.responseSeq += 1;
    return `${this.baseUrl}/commands/T1/${this.responseSeq}/hook`;
  }

  /**
   * Accepts `appToken` for apps.connections.open and serves Socket Mode on `/link`: a `hello`
   * on connect, then whatever envelopes the test sends.
   */
  enableSocketMode(appToken: string): void {
    this.appTokens.add(appToken);
    if (this.wss !== undefined || this.server === undefined) return;
    const wss = new WebSocketServer({ noServer: true });
    this.wss = wss;
    this.server.on('upgrade', (req, socket, head) => {
      if (!(req.url ?? '').startsWith('/link')) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        this.sockets.add(ws);
        ws.on('close', () => this.sockets.delete(ws));
        ws.on('message', (data) => {
          const ack = JSON.parse(String(data)) as { envelope_id?: string; payload?: unknown };
          if (ack.envelope_id !== undefined) this.events.emit(`ack:${ack.envelope_id}`, ack.payload);
        });
        ws.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A1' } }));
        this.events.emit('socket');
      });
    });
  }

  /** Resolves once a Socket Mode client has connected. */
  waitForSocket(): Promise<void> {
    if (this.sockets.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.events.once('socket', () => resolve()));
  }

  /** Sends a Socket Mode envelope to every connected client; resolves with the ack's payload. */
  sendEnvelope(type: string, payload: Record<string, unknown>): Promise<unknown> {
    this.envelopeSeq += 1;
    const envelopeId = `env-${this.envelopeSeq}`;
    const acked = new Promise<unknown>((resolve) => this.events.once(`ack:${envelopeId}`, resolve));
    const envelope = {
      envelope_id: envelopeId,
      type,
      payload,
      accepts_response_payload: true,
      retry_attempt: 0,
    };
    for (const socket of this.sockets) socket.send(JSON.stringify(envelope));
    return acked;
  }

  addToken(token: string, teamId: string): void {
    this.tokens.set(token, { teamId, revoked: false });
  }

  revokeToken(token: string): void {
    const known = this.tokens.get(token);
    if (known !== undefined) known.revoked = true;
  }

  /**
   * A workspace removes the app: every token of `teamId` stops working, and Slack posts
   * `app_uninstalled` and `tokens_revoked` (the bot's token) to the app's request URL.
   */
  async uninstallApp(botUrl: string, signingSecret: string, teamId: string): Promise<Response[]> {
    for (const known of this.tokens.values()) if (known.teamId === teamId) known.revoked = true;
    return [
      await postEvent(botUrl, signingSecret, teamId, APP_UNINSTALLED),
      await postEvent(botUrl, signingSecret, teamId, tokensRevoked({ bot: [`U${teamId}BOT`] })),
    ];
  }

  /** Makes a revoked token work again (a glitch on Slack's side that cleared up). */
  restoreToken(token: string): void {
    const known = this.tokens.get(token);
    if (known !== undefined) known.revoked = false;
  }

  addChannel(id: string, options: Partial<Omit<FakeChannel, 'members'>> & { members?: string[] } = {}): void {
    this.channels.set(id, {
      archived: options.archived ?? false,
      isPrivate: options.isPrivate ?? false,
      requiresMembership: options.requiresMembership ?? false,
      members: new Set(options.members ?? []),
    });
  }

  archiveChannel(id: string): void {
    const channel = this.channels.get(id);
    if (channel !== undefined) channel.archived = true;
  }

  deleteChannel(id: string): void {
    this.channels.delete(id);
  }

  /** A person users.info knows; `tz` is their IANA zone as Slack reports it (absent: none set). */
  addUser(id: string, roles: { is_admin?: boolean; is_owner?: boolean; tz?: string } = {}): void {
    this.users.set(id, {
      is_admin: roles.is_admin ?? false,
      is_owner: roles.is_owner ?? false,
      ...(roles.tz === undefined ? {} : { tz: roles.tz }),
    });
  }

  /**
   * The next `times` calls of `method` answer `status` (429 with Retry-After, or a 5xx); with
   * `channel`, only calls for that channel do (a storm on one busy channel).
   */
  failNext(method: string, status: number, times = 1, retryAfter?: number, channel?: string): void {
    this.forced.push({
      method,
      status,
      remaining: times,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      ...(channel === undefined ? {} : { channel }),
    });
  }

  /**
   * The next `times` calls of `method` are received and recorded but never answered: the request
   * hangs until the client gives up or the fake closes. With `channel`, only calls for that channel.
   */
  hangNext(method: string, times = 1, channel?: string): void {
    this.hangs.push({ method, remaining: times, ...(channel === undefined ? {} : { channel }) });
  }

  /**
   * Every later call of `method` is answered `ms` after it arrives, as a slow Slack would (the
   * answer itself is unchanged); 0 answers at once again.
   */
  slowDown(method: string, ms: number): void {
    if (ms > 0) this.delays.set(method, ms);
    else this.delays.delete(method);
  }

  /**
   * The next `times` calls of `method` answer `{ ok: false, error }` with HTTP 200, as Slack does
   * for a refused call (`msg_too_long`, `invalid_blocks`, `invalid_auth`, …); with `channel`, only
   * calls for that channel do.
   */
  refuseNext(method: string, error: string, times = 1, channel?: string): void {
    this.forced.push({
      method,
      status: 200,
      error,
      remaining: times,
      ...(channel === undefined ? {} : { channel }),
    });
  }

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Resolves with the first response_url post matching `predicate`, now or when it arrives. */
  waitForResponse(predicate: (r: RecordedResponse) => boolean = () => true): Promise<RecordedResponse> {
    const found = this.responses.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = (response: RecordedResponse): void => {
        if (!predicate(response)) return;
        this.events.off('response', listener);
        resolve(response);
      };
      this.events.on('response', listener);
    });
  }

  /**
   * Resolves with the hung call of `method` (see `hangNext`) once the client has given up on it,
   * now or when it does: an event to wait for instead of guessing how long the client waits.
   */
  gaveUpOn(method: string): Promise<RecordedCall> {
    return this.waitForCall((call) => call.method === method && call.abandoned === true);
  }

  /** Resolves with the first Web API call matching `predicate`, now or when it arrives. */
  waitForCall(predicate: (c: RecordedCall) => boolean): Promise<RecordedCall> {
    const found = this.calls.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = (call: RecordedCall): void => {
        if (!predicate(call)) return;
        this.events.off('call', listener);
        resolve(call);
      };
      this.events.on('call', listener);
    });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (url.pathname.startsWith('/commands/')) {
      const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
      this.checkBlocks(body['blocks']);
      const response = { path: url.pathname, body };
      this.responses.push(response);
      this.events.emit('response', response);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const oidc =
      url.pathname === '/.well-known/openid-configuration'
        ? this.oidc.discovery()
        : url.pathname === '/openid/connect/keys'
          ? this.oidc.keys()
          : url.pathname === '/openid/connect/authorize'
            ? this.oidc.authorize(url.searchParams)
            : url.pathname === '/api/openid.connect.token'
              ? this.oidc.token(this.parseParams(req, raw, url), req.headers.authorization)
              : undefined;
    if (oidc !== undefined) {
      const type = oidc.body === undefined ? {} : { 'content-type': 'application/json' };
      res
        .writeHead(oidc.status, { ...type, ...oidc.headers })
        .end(oidc.body === undefined ? undefined : JSON.stringify(oidc.body));
      return;
    }
    if (!url.pathname.startsWith('/api/')) {
      res.writeHead(404).end();
      return;
    }
    const method = url.pathname.slice('/api/'.length);
    const params = this.parseParams(req, raw, url);
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ')
      ? auth.slice('Bearer '.length)
      : (params['token'] as string | undefined);
    const at = this.now();
    const hang = this.hangs.find(
      (h) =>
        h.method === method &&
        h.remaining > 0 &&
        (h.channel === undefined || h.channel === String(params['channel'])),
    );
    if (hang !== undefined) {
      hang.remaining -= 1;
      const call: RecordedCall = { method, token, params, status: 0, response: {}, at, hung: true };
      this.calls.push(call);
      this.events.emit('call', call);
      // No answer: the request is held until the client gives up (or close() ends the socket).
      const gaveUp = (): void => {
        if (this.closing) return;
        call.abandoned = true;
        this.events.emit('call', call);
      };
      // A client quick to give up may have closed the connection while its body was being read.
      if (req.socket.destroyed) gaveUp();
      else res.once('close', gaveUp);
      return;
    }
    const delay = this.delays.get(method);
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    const { status, body, headers } = this.answer(method, token, params);
    const call: RecordedCall = { method, token, params, status, response: body, at };
    this.calls.push(call);
    this.events.emit('call', call);
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  }

  private parseParams(req: IncomingMessage, raw: string, url: URL): Record<string, unknown> {
    const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (raw === '') return params;
    if ((req.headers['content-type'] ?? '').includes('application/json')) {
      return { ...params, ...(JSON.parse(raw) as Record<string, unknown>) };
    }
    for (const [key, value] of new URLSearchParams(raw)) {
      // The Web API client JSON-encodes arrays and objects inside form bodies.
      params[key] = key === 'blocks' || key === 'attachments' || key === 'view' ? JSON.parse(value) : value;
    }
    return params;
  }

  private answer(
    method: string,
    token: string | undefined,
    params: Record<string, unknown>,
  ): { status: number; body: Record<string, unknown>; headers?: Record<string, string> } {
    const forced = this.forced.find(
      (f) =>
        f.method === method &&
        f.remaining > 0 &&
        (f.channel === undefined || f.channel === String(params['channel'])),
    );
    if (forced !== undefined) {
      forced.remaining -= 1;
      if (forced.status === 429) {
        return {
          status: 429,
          body: { ok: false, error: 'ratelimited' },
          headers: { 'retry-after': String(forced.retryAfter ?? 1) },
        };
      }
      return { status: forced.status, body: { ok: false, error: forced.error ?? 'internal_error' } };
    }

    if (method === 'oauth.v2.access') return this.oauth.access(params);
    if (method === 'apps.connections.open') {
      if (token === undefined || !this.appTokens.has(token))
        return { status: 200, body: { ok: false, error: 'invalid_auth' } };
      return {
        status: 200,
        body: { ok: true, url: `${this.baseUrl.replace('http:', 'ws:')}/link?ticket=1` },
      };
    }

    const fail = (error: string, extra: Record<string, unknown> = {}) => ({
      status: 200,
      body: { ok: false, error, ...extra },
    });
    if (token === undefined) return fail('not_authed');
    const known = this.tokens.get(token);
    if (known === undefined) return fail('invalid_auth');
    if (known.revoked) return fail('token_revoked');
    if (known.expiresAt !== undefined && this.now() >= known.expiresAt) return fail('token_expired');
    const viewAnswer = this.modals.answer(method, known.teamId, params);
    if (viewAnswer !== undefined) return viewAnswer;

    switch (method) {
      case 'auth.test':
        return {
          status: 200,
          body: {
            ok: true,
            url: 'https://fake.slack.com/',
            team: 'Fake',
            user: 'directory-bot',
            team_id: known.teamId,
            user_id: `U${known.teamId}BOT`,
            bot_id: `B${known.teamId}`,
            is_enterprise_install: false,
          },
        };
      case 'users.info': {
        const user = this.users.get(String(params['user']));
        if (user === undefined) return fail('user_not_found');
        return {
          status: 200,
          body: { ok: true, user: { id: params['user'], team_id: known.teamId, ...user } },
        };
      }
      case 'conversations.join': {
        const id = String(params['channel']);
        const channel = this.channels.get(id);
        if (channel === undefined) return fail('channel_not_found');
        if (channel.archived) return fail('is_archived');
        if (channel.isPrivate) return fail('method_not_supported_for_channel_type');
        channel.members.add(known.teamId);
        return { status: 200, body: { ok: true, channel: { id, is_channel: true, is_member: true } } };
      }
      case 'chat.postMessage':
        return this.postMessage(known.teamId, params);
      case 'chat.unfurl':
        return this.unfurls.answer(params);
      case 'chat.update':
        return this.updates.answer(params);
      case 'chat.delete':
        return this.updates.delete(params);
      case 'conversations.open':
        return this.dms.open(known.teamId, params);
      case 'views.publish':
        return this.views.publish(known.teamId, params);
      default:
        return fail('unknown_method');
    }
  }

  private postMessage(
    teamId: string,
    params: Record<string, unknown>,
  ): { status: number; body: Record<string, unknown>; headers?: Record<string, string> } {
    const fail = (error: string, extra: Record<string, unknown> = {}) => ({
      status: 200,
      body: { ok: false, error, ...extra },
    });
    for (const name of Object.keys(params)) {
      if (!this.allowedPostParams.has(name)) {
        this.violations.push(`chat.postMessage: parameter ${name} is not in the OpenAPI spec`);
        return fail('invalid_arg_name');
      }
    }
    if (params['link_names'] !== undefined && String(params['link_names']) !== 'false') {
      this.violations.push('chat.postMessage: link_names must not be set');
    }
    if (params['parse'] === 'full') this.violations.push('chat.postMessage: parse=full must not be used');
    const blocks = params['blocks'];
    if ((typeof params['text'] !== 'string' || params['text'] === '') && blocks === undefined)
      return fail('no_text');
    if (blocks !== undefined) {
      const problems = this.checkBlocks(blocks);
      if (problems.length > 0) return fail('invalid_blocks', { response_metadata: { messages: problems } });
    }
    const id = String(params['channel']);
    const channel = this.channels.get(id);
    if (channel === undefined) return fail('channel_not_found');
    if (channel.archived) return fail('is_archived');
    if ((channel.requiresMembership || channel.isPrivate) && !channel.members.has(teamId))
      return fail('not_in_channel');
    const threadError = this.threads.check(id, params);
    if (threadError !== undefined) return fail(threadError);

    // One message per second per channel, with `burst` at once: a token bucket on the fake's clock.
    const now = this.now();
    const bucket = this.buckets.get(id) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) / 1000);
    bucket.at = now;
    this.buckets.set(id, bucket);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil(1 - bucket.tokens));
      return {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': String(retryAfter) },
      };
    }
    bucket.tokens -= 1;
    const ts = `${Math.floor(now / 1000)}.${String(this.calls.length).padStart(6, '0')}`;
    this.threads.posted(id, ts, params);
    this.updates.posted(id, ts, params);
    return {
      status: 200,
      body: {
        ok: true,
        channel: id,
        ts,
        message: { type: 'message', text: params['text'], ts, bot_id: `B${teamId}` },
      },
    };
  }

  private checkBlocks(blocks: unknown): string[] {
    if (blocks === undefined) return [];
    const problems = blockKitViolations(blocks);
    this.violations.push(...problems);
    return problems;
  }
}
