import { createHash, randomBytes } from 'node:crypto';
import { RESPONSE_SCHEMAS, validateAgainstSpec } from './discord-spec.js';

/** A person Discord knows: who they are and the servers they are in. */
export interface FakeDiscordPerson {
  id: string;
  username: string;
  globalName?: string;
  /** Server ids they are a member of, with the role ids they hold in each. */
  guilds: Map<string, string[]>;
}

/** A server's owner and roles (`@everyone` is the role whose id is the server's). */
export interface FakeGuild {
  name: string;
  ownerId: string;
  roles: { id: string; name: string; permissions: bigint }[];
}

/** A channel's permission overwrites (`type` 0 role, 1 member), as GET /channels/{id} lists them. */
export interface FakeOverwrite {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * Discord's OAuth2 (docs: Topics → OAuth2, "Authorization Code Grant" with PKCE) and the user
 * routes its token opens, as the fake Discord serves them: the consent page (auto-approved for the
 * person the test says is signed in to discord.com in this browser), the token exchange with a
 * one-use code bound to its redirect URI and PKCE challenge, `GET /users/@me` and
 * `/users/@me/guilds` for that token. Also the bot's view of servers: their roles, members and
 * channels' overwrites. Every JSON answer is checked against Discord's OpenAPI schema.
 */
export class FakeDiscordOAuth {
  readonly people = new Map<string, FakeDiscordPerson>();
  readonly guilds = new Map<string, FakeGuild>();
  readonly overwrites = new Map<string, FakeOverwrite[]>();
  /** Who is signed in to discord.com in the browser: the consent page approves as them. */
  signedIn: string | undefined;
  readonly #codes = new Map<
    string,
    { userId: string; redirectUri: string; challenge: string; scope: string }
  >();
  readonly #tokens = new Map<string, { userId: string; scope: string }>();
  readonly #problems: string[];
  readonly #client: { id: string; secret: string; redirectUris: string[] };

  constructor(client: { id: string; secret: string; redirectUris: string[] }, problems: string[]) {
    this.#client = client;
    this.#problems = problems;
  }

  /** Registers a redirect URI (the Developer Portal's OAuth2 page). */
  allowRedirect(uri: string): void {
    this.#client.redirectUris.push(uri);
  }

  addPerson(id: string, username: string, guilds: Record<string, string[]> = {}): void {
    this.people.set(id, { id, username, guilds: new Map(Object.entries(guilds)) });
  }

  addGuild(id: string, guild: FakeGuild): void {
    this.guilds.set(id, guild);
  }

  #check(schema: string, body: unknown, what: string): unknown {
    for (const error of validateAgainstSpec(schema, body)) this.#problems.push(`${what}: ${error}`);
    return body;
  }

  /** The consent page: GET /oauth2/authorize. */
  authorize(query: URLSearchParams): Answer {
    const bad = (text: string): Answer => ({
      status: 400,
      body: { error: 'invalid_request', error_description: text },
    });
    if (query.get('client_id') !== this.#client.id) return bad('unknown client_id');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!this.#client.redirectUris.includes(redirectUri)) return bad('redirect_uri is not registered');
    if (query.get('response_type') !== 'code') return bad('response_type must be code');
    const scope = query.get('scope') ?? '';
    const scopes = scope.split(' ');
    if (scopes.some((s) => !['identify', 'guilds'].includes(s)))
      this.#problems.push(`authorize: unexpected scope ${scope}`);
    const challenge = query.get('code_challenge') ?? '';
    if (query.get('code_challenge_method') !== 'S256' || challenge === '') return bad('PKCE S256 expected');
    const target = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (this.signedIn === undefined) {
      target.searchParams.set('error', 'access_denied');
      return { status: 302, headers: { location: target.href } };
    }
    const code = randomBytes(15).toString('hex');
    this.#codes.set(code, { userId: this.signedIn, redirectUri, challenge, scope });
    target.searchParams.set('code', code);
    return { status: 302, headers: { location: target.href } };
  }

  /** POST /api/oauth2/token (application/x-www-form-urlencoded). */
  token(body: URLSearchParams, authorization: string | undefined): Answer {
    const refuse = (error: string): Answer => ({ status: 400, body: { error } });
    let clientId = body.get('client_id');
    let secret = body.get('client_secret');
    if (authorization?.startsWith('Basic ')) {
      const [id, pass] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      secret = decodeURIComponent(pass ?? '');
    }
    if (clientId !== this.#client.id || secret !== this.#client.secret)
      return { status: 401, body: { error: 'invalid_client' } };
    if (body.get('grant_type') !== 'authorization_code') return refuse('unsupported_grant_type');
    const code = body.get('code') ?? '';
    const grant = this.#codes.get(code);
    // One use: a replayed code is refused.
    this.#codes.delete(code);
    if (grant === undefined) return refuse('invalid_grant');
    if (body.get('redirect_uri') !== grant.redirectUri) return refuse('invalid_grant');
    const verifier = body.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
      return refuse('invalid_grant');
    const accessToken = randomBytes(15).toString('hex');
    this.#tokens.set(accessToken, { userId: grant.userId, scope: grant.scope });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 604800,
        refresh_token: randomBytes(15).toString('hex'),
        scope: grant.scope,
      },
    };
  }

  /** GET /users/@me and /users/@me/guilds with a user's Bearer token; undefined for other routes. */
  userRoute(path: string, query: URLSearchParams, authorization: string | undefined): Answer | undefined {
    if (!authorization?.startsWith('Bearer ')) return undefined;
    if (path !== '/users/@me' && path !== '/users/@me/guilds') return undefined;
    const grant = this.#tokens.get(authorization.slice(7));
    if (grant === undefined) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    const person = this.people.get(grant.userId);
    if (person === undefined) return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    if (path === '/users/@me') {
      if (!grant.scope.split(' ').includes('identify'))
        return { status: 403, body: { message: 'Missing Access', code: 50001 } };
      const user = {
        id: person.id,
        username: person.username,
        avatar: null,
        discriminator: '0',
        public_flags: 0,
        flags: 0,
        global_name: person.globalName ?? null,
        mfa_enabled: false,
        locale: 'en-US',
      };
      return { status: 200, body: this.#check(RESPONSE_SCHEMAS.user, user, 'GET /users/@me') };
    }
    if (!grant.scope.split(' ').includes('guilds'))
      return { status: 403, body: { message: 'Missing Access', code: 50001 } };
    const limit = Math.min(200, Number(query.get('limit') ?? 200));
    const after = query.get('after');
    const ids = [...person.guilds.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    const page = ids.filter((id) => after === null || BigInt(id) > BigInt(after)).slice(0, limit);
    const list = page.map((id) => ({
      id,
      name: this.guilds.get(id)?.name ?? `Server ${id}`,
      icon: null,
      banner: null,
      owner: this.guilds.get(id)?.ownerId === person.id,
      permissions: String(this.permissions(id, person.id)),
      features: [],
    }));
    return {
      status: 200,
      body: this.#check(`array:${RESPONSE_SCHEMAS.myGuild}`, list, 'GET /users/@me/guilds'),
    };
  }

  /** A member's server-wide permissions: @everyone's and their roles' (what /users/@me/guilds reports). */
  permissions(guildId: string, userId: string): bigint {
    const guild = this.guilds.get(guildId);
    const roles = this.people.get(userId)?.guilds.get(guildId) ?? [];
    let bits = 0n;
    for (const role of guild?.roles ?? [])
      if (role.id === guildId || roles.includes(role.id)) bits |= role.permissions;
    return bits;
  }

  /** GET /guilds/{id}/roles for the bot. */
  roles(guildId: string): Answer {
    const guild = this.guilds.get(guildId);
    if (guild === undefined) return { status: 404, body: { message: 'Unknown Guild', code: 10004 } };
    const list = guild.roles.map((r, position) => ({
      id: r.id,
      name: r.name,
      permissions: String(r.permissions),
      position,
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      managed: false,
      mentionable: false,
      icon: null,
      unicode_emoji: null,
      flags: 0,
    }));
    return {
      status: 200,
      body: this.#check(`array:${RESPONSE_SCHEMAS.role}`, list, 'GET /guilds/{id}/roles'),
    };
  }

  /** GET /guilds/{id}/members/{user} for the bot. */
  member(guildId: string, userId: string): Answer {
    const person = this.people.get(userId);
    const roles = person?.guilds.get(guildId);
    if (person === undefined || roles === undefined)
      return { status: 404, body: { message: 'Unknown Member', code: 10007 } };
    const member = {
      avatar: null,
      banner: null,
      communication_disabled_until: null,
      flags: 0,
      joined_at: '2024-01-01T00:00:00.000000+00:00',
      nick: null,
      pending: false,
      premium_since: null,
      roles,
      user: {
        id: person.id,
        username: person.username,
        avatar: null,
        discriminator: '0',
        public_flags: 0,
        flags: 0,
        global_name: person.globalName ?? null,
      },
      mute: false,
      deaf: false,
    };
    return {
      status: 200,
      body: this.#check(RESPONSE_SCHEMAS.member, member, 'GET /guilds/{id}/members/{id}'),
    };
  }

  /** GET /channels/{id} for the bot: a text channel of its server, with its overwrites. */
  channel(channelId: string, guildId: string): Answer {
    const channel = {
      id: channelId,
      type: 0,
      flags: 0,
      guild_id: guildId,
      name: `channel-${channelId.slice(-4)}`,
      position: 0,
      permission_overwrites: (this.overwrites.get(channelId) ?? []).map((o) => ({
        id: o.id,
        type: o.type,
        allow: String(o.allow),
        deny: String(o.deny),
      })),
    };
    return { status: 200, body: this.#check(RESPONSE_SCHEMAS.channel, channel, 'GET /channels/{id}') };
  }
}
