import * as oidc from 'openid-client';
import { authorizationRequest, isLoopbackHttp, type SignInProvider } from './sign-in-provider.js';

export interface SlackSignInOptions {
  /** SLACK_API_URL (`https://slack.com/api/`): the issuer is its origin, as Slack's is `https://slack.com`. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** Where the platform sends the browser back: `<PANEL_URL>/signin/slack/callback`. */
  redirectUri: string;
}

/** Claims Slack adds to the ID token (docs: openid.connect.token). */
const TEAM_ID = 'https://slack.com/team_id';
const USER_ID = 'https://slack.com/user_id';
const TEAM_NAME = 'https://slack.com/team_name';

/**
 * Sign in with Slack: OpenID Connect's authorization code flow with state, nonce and PKCE (S256),
 * through openid-client. The provider's metadata and keys come from Slack's discovery document,
 * read once at the first sign-in; the ID token's signature (against Slack's JWKS), issuer,
 * audience, expiry and nonce are checked by the library. Only `openid profile` is asked: who the person is and which
 * workspace they signed in to.
 */
export function slackSignIn(options: SlackSignInOptions): SignInProvider {
  const issuer = new URL(new URL(options.apiUrl).origin);
  let configuration: Promise<oidc.Configuration> | undefined;
  const configure = () => {
    configuration ??= oidc
      .discovery(issuer, options.clientId, options.clientSecret, undefined, {
        // The ID token's signature is checked against Slack's published keys too, not only
        // trusted for arriving over TLS from the token endpoint.
        execute: [
          oidc.enableNonRepudiationChecks,
          ...(isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : []),
        ],
        timeout: 10,
      })
      .catch((error: unknown) => {
        // Try discovery again at the next sign-in rather than keeping the failure.
        configuration = undefined;
        throw error;
      });
    return configuration;
  };
  return {
    id: 'slack',
    label: 'Sign in with Slack',
    redirectUri: options.redirectUri,
    async start() {
      return authorizationRequest(await configure(), {
        redirectUri: options.redirectUri,
        scope: 'openid profile',
        nonce: true,
      });
    },
    async finish(callback, pending) {
      const config = await configure();
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        ...(pending.nonce === undefined ? {} : { expectedNonce: pending.nonce }),
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      const teamId = claims?.[TEAM_ID];
      const userId = claims?.[USER_ID] ?? claims?.sub;
      if (typeof teamId !== 'string' || typeof userId !== 'string') {
        throw new Error('the Slack ID token names no team or user');
      }
      const teamName = claims?.[TEAM_NAME];
      const name = claims?.['name'];
      return {
        platform: 'slack',
        userId,
        name: typeof name === 'string' && name !== '' ? name : userId,
        workspaces: [{ id: teamId, name: typeof teamName === 'string' ? teamName : teamId }],
      };
    },
  };
}
