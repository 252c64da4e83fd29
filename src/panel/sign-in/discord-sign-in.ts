import * as oidc from 'openid-client';
import { z } from 'zod';
import { authorizationRequest, isLoopbackHttp, type SignInProvider } from './sign-in-provider.js';

export interface DiscordSignInOptions {
  /** DISCORD_API_URL (`https://discord.com/api`); the authorize page is at its origin. */
  apiUrl: string;
  /** DISCORD_APPLICATION_ID: an application's id is its OAuth2 client id. */
  clientId: string;
  clientSecret: string;
  /** `<PANEL_URL>/signin/discord/callback`. */
  redirectUri: string;
}

/** The fields read from GET /users/@me (`UserPIIResponse` in Discord's OpenAPI spec). */
const userSchema = z.object({
  id: z.string().regex(/^\d+$/),
  username: z.string(),
  global_name: z.string().nullish(),
});

/** The fields read from GET /users/@me/guilds (`MyGuildResponse`). */
const guildsSchema = z.array(z.object({ id: z.string().regex(/^\d+$/), name: z.string() }));

/** Discord lists at most this many servers per page of /users/@me/guilds. */
const GUILD_PAGE = 200;
/** Pages read at most: a person in more servers than this sees the first 1,000. */
const MAX_GUILD_PAGES = 5;

/**
 * Sign in with Discord: OAuth2's authorization code flow with state and PKCE (S256), through
 * openid-client, asking for `identify guilds` only: who the person is and which servers they are
 * in. The access token is used for those two reads and then dropped; it is never stored.
 */
export function discordSignIn(options: DiscordSignInOptions): SignInProvider {
  const api = options.apiUrl.replace(/\/+$/, '');
  const origin = new URL(api).origin;
  const server: oidc.ServerMetadata = {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth2/authorize`,
    token_endpoint: `${api}/oauth2/token`,
  };
  const config = new oidc.Configuration(server, options.clientId, options.clientSecret);
  if (isLoopbackHttp(new URL(api))) oidc.allowInsecureRequests(config);

  async function read<T>(accessToken: string, path: string, schema: z.ZodType<T>): Promise<T> {
    const response = await oidc.fetchProtectedResource(
      config,
      accessToken,
      new URL(`${api}/v10${path}`),
      'GET',
    );
    if (!response.ok) throw new Error(`Discord answered ${response.status} to ${path}`);
    return schema.parse(await response.json());
  }

  return {
    id: 'discord',
    label: 'Sign in with Discord',
    redirectUri: options.redirectUri,
    start() {
      return authorizationRequest(config, {
        redirectUri: options.redirectUri,
        scope: 'identify guilds',
        nonce: false,
      });
    },
    async finish(callback, pending) {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
      });
      const user = await read(tokens.access_token, '/users/@me', userSchema);
      const workspaces: { id: string; name: string }[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_GUILD_PAGES; page += 1) {
        const query = `?limit=${GUILD_PAGE}${after === undefined ? '' : `&after=${after}`}`;
        const guilds = await read(tokens.access_token, `/users/@me/guilds${query}`, guildsSchema);
        workspaces.push(...guilds.map((g) => ({ id: g.id, name: g.name })));
        if (guilds.length < GUILD_PAGE) break;
        after = guilds.at(-1)?.id;
      }
      return {
        platform: 'discord',
        userId: user.id,
        name: user.global_name ?? user.username,
        workspaces,
      };
    },
  };
}
