import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Slack's Sign in with Slack contract as vendored (test/fixtures/platform/slack-openid). */
export const SLACK_OPENID_CONTRACT = JSON.parse(
  readFileSync(
    new URL('../../fixtures/platform/slack-openid/sign-in-with-slack.json', import.meta.url),
    'utf8',
  ),
) as {
  discovery: Record<string, unknown>;
  authorize: { path: string; parameters: string[]; required: string[] };
  'openid.connect.token': { arguments: string[]; response: string[] };
  id_token_claims: string[];
};

/** Who is signed in to Slack in the browser: the consent page approves as them. */
export interface SlackPerson {
  userId: string;
  teamId: string;
  teamName: string;
  name: string;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * Sign in with Slack (OpenID Connect) as the fake Slack serves it, on the paths of Slack's
 * published contract: the discovery document, the consent page (auto-approved for the person the
 * test signed in), `openid.connect.token` with a one-use code bound to its redirect URI, PKCE
 * challenge and nonce, an RS256 ID token with Slack's claims, and the JWKS to check it. Requests
 * carrying parameters the contract does not list are recorded as violations.
 */
export class FakeSlackOidc {
  signedIn: SlackPerson | undefined;
  readonly redirectUris: string[] = [];
  readonly #violations: string[];
  readonly #client: { id: string; secret: string };
  readonly #key: { privateKey: KeyObject; publicKey: KeyObject; kid: string };
  readonly #codes = new Map<
    string,
    { person: SlackPerson; redirectUri: string; challenge?: string; nonce?: string }
  >();
  readonly #tokens = new Map<string, SlackPerson>();
  #base = '';
  /** Issued ID tokens signed with another key from now on (a forged token). */
  forgeSignatures = false;

  constructor(client: { id: string; secret: string }, violations: string[], now: () => number) {
    this.#client = client;
    this.#violations = violations;
    this.#now = now;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#key = { privateKey, publicKey, kid: randomBytes(4).toString('hex') };
  }

  readonly #now: () => number;

  set base(value: string) {
    this.#base = value;
  }

  /** GET /.well-known/openid-configuration: Slack's document, on this host. */
  discovery(): Answer {
    const doc = JSON.parse(
      JSON.stringify(SLACK_OPENID_CONTRACT.discovery).replaceAll('https://slack.com', this.#base),
    );
    return { status: 200, body: doc };
  }

  keys(): Answer {
    const jwk = this.#key.publicKey.export({ format: 'jwk' });
    return { status: 200, body: { keys: [{ ...jwk, kid: this.#key.kid, alg: 'RS256', use: 'sig' }] } };
  }

  /** GET /openid/connect/authorize. */
  authorize(query: URLSearchParams): Answer {
    const contract = SLACK_OPENID_CONTRACT.authorize;
    for (const name of query.keys()) {
      if (!contract.parameters.includes(name))
        this.#violations.push(`authorize: parameter ${name} is not in Slack's contract`);
    }
    const bad = (text: string): Answer => ({ status: 400, body: { ok: false, error: text } });
    for (const name of contract.required) if (!query.has(name)) return bad(`missing ${name}`);
    if (query.get('client_id') !== this.#client.id) return bad('invalid_client_id');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!this.redirectUris.includes(redirectUri)) return bad('bad_redirect_uri');
    if (query.get('response_type') !== 'code') return bad('invalid_response_type');
    if (!(query.get('scope') ?? '').split(' ').includes('openid')) return bad('invalid_scope');
    const challenge = query.get('code_challenge') ?? undefined;
    if (challenge !== undefined && query.get('code_challenge_method') !== 'S256')
      return bad('invalid_code_challenge_method');
    const target = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) target.searchParams.set('state', state);
    if (this.signedIn === undefined) {
      target.searchParams.set('error', 'access_denied');
      return { status: 302, headers: { location: target.href } };
    }
    const code = randomBytes(16).toString('hex');
    const nonce = query.get('nonce') ?? undefined;
    this.#codes.set(code, {
      person: this.signedIn,
      redirectUri,
      ...(challenge === undefined ? {} : { challenge }),
      ...(nonce === undefined ? {} : { nonce }),
    });
    target.searchParams.set('code', code);
    return { status: 302, headers: { location: target.href } };
  }

  /** The `openid.connect.token` method (no bot token: the client authenticates). */
  token(params: Record<string, unknown>, authorization: string | undefined): Answer {
    for (const name of Object.keys(params)) {
      if (!SLACK_OPENID_CONTRACT['openid.connect.token'].arguments.includes(name))
        this.#violations.push(`openid.connect.token: argument ${name} is not in Slack's contract`);
    }
    const fail = (error: string): Answer => ({ status: 200, body: { ok: false, error } });
    let clientId = params['client_id'];
    let secret = params['client_secret'];
    if (authorization?.startsWith('Basic ')) {
      const [id, pass] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      secret = decodeURIComponent(pass ?? '');
    }
    if (clientId !== this.#client.id || secret !== this.#client.secret) return fail('invalid_client');
    const code = String(params['code'] ?? '');
    const grant = this.#codes.get(code);
    this.#codes.delete(code);
    if (grant === undefined) return fail('invalid_code');
    if (params['redirect_uri'] !== grant.redirectUri) return fail('bad_redirect_uri');
    if (grant.challenge !== undefined) {
      const verifier = String(params['code_verifier'] ?? '');
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
        return fail('invalid_code_verifier');
    }
    const accessToken = `xoxp-${randomBytes(12).toString('hex')}`;
    this.#tokens.set(accessToken, grant.person);
    const now = Math.floor(this.#now() / 1000);
    const claims = {
      iss: this.#base,
      sub: grant.person.userId,
      aud: this.#client.id,
      exp: now + 300,
      iat: now,
      auth_time: now,
      ...(grant.nonce === undefined ? {} : { nonce: grant.nonce }),
      'https://slack.com/team_id': grant.person.teamId,
      'https://slack.com/user_id': grant.person.userId,
      name: grant.person.name,
      locale: 'en-US',
      'https://slack.com/team_name': grant.person.teamName,
    };
    for (const claim of Object.keys(claims)) {
      if (!SLACK_OPENID_CONTRACT.id_token_claims.includes(claim))
        this.#violations.push(`id_token: claim ${claim} is not Slack's`);
    }
    return {
      status: 200,
      body: { ok: true, access_token: accessToken, token_type: 'Bearer', id_token: this.#sign(claims) },
    };
  }

  #sign(claims: object): string {
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: this.#key.kid })).toString(
      'base64url',
    );
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const key = this.forgeSignatures
      ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
      : this.#key.privateKey;
    const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(key).toString('base64url');
    return `${header}.${payload}.${signature}`;
  }
}
