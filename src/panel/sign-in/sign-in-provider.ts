import * as oidc from 'openid-client';
import type { Installation } from '../../ports/index.js';

/** A sign-in started in this browser session, kept in the session until its callback comes. */
export interface PendingSignIn {
  provider: string;
  /** OAuth `state`: the callback must carry exactly this, once. */
  state: string;
  /** PKCE code verifier; only its S256 challenge left this server. */
  codeVerifier: string;
  /** OpenID Connect nonce, checked in the ID token. */
  nonce?: string;
  startedAt: number;
  /** A path on this panel to go back to once signed in (never another site). */
  returnTo: string;
}

/** Who signed in, as the platform vouched for them. No token is kept. */
export interface SignedInPerson {
  platform: 'slack' | 'discord';
  userId: string;
  name: string;
  /** The workspaces they belong to: the Slack team they signed in to, their Discord servers. */
  workspaces: Installation[];
}

/** One way to sign in: Sign in with Slack, Discord OAuth2. */
export interface SignInProvider {
  readonly id: 'slack' | 'discord';
  /** The button's words. */
  readonly label: string;
  /** Where the platform sends the browser back (`<PANEL_URL>/signin/<id>/callback`). */
  readonly redirectUri: string;
  /** Where to send the browser, and what to keep in the session until it comes back. */
  start(): Promise<{
    url: string;
    pending: Pick<PendingSignIn, 'state' | 'codeVerifier' | 'nonce'>;
  }>;
  /**
   * Checks the callback (state, PKCE, the ID token) and exchanges its code; rejects when any
   * check fails. `callback` is the redirect URI with the query the platform added.
   */
  finish(callback: URL, pending: PendingSignIn): Promise<SignedInPerson>;
}

/** Whether `url` may be reached over plain HTTP: only a fake platform on this machine. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * The authorization URL of a code flow with a fresh state and PKCE (S256), plus a nonce when asked
 * (OpenID Connect): what to send the browser to, and what to keep until it comes back.
 */
export async function authorizationRequest(
  config: oidc.Configuration,
  request: { redirectUri: string; scope: string; nonce: boolean },
): Promise<{ url: string; pending: Pick<PendingSignIn, 'state' | 'codeVerifier' | 'nonce'> }> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = request.nonce ? oidc.randomNonce() : undefined;
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: request.redirectUri,
    scope: request.scope,
    response_type: 'code',
    state,
    ...(nonce === undefined ? {} : { nonce }),
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, pending: { state, codeVerifier, ...(nonce === undefined ? {} : { nonce }) } };
}
