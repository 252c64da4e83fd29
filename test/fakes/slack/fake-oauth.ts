/** A code the fake's consent page would hand the bot, and the install it grants. */
export interface OAuthGrant {
  teamId: string;
  teamName: string;
  /** The bot token; with token rotation the fake issues `xoxe.<this>-<n>` access tokens instead. */
  botToken: string;
  userId: string;
}

export interface FakeOAuthDeps {
  now(): number;
  /** Makes `token` valid for `teamId`, until `expiresAt` (fake clock, ms) when given. */
  issue(token: string, teamId: string, expiresAt?: number): void;
  clientId: string;
  clientSecret: string;
  /** `token_rotation_enabled` in the app's manifest. */
  rotation: boolean;
  lifetimeSeconds: number;
}

type Answer = { status: number; body: Record<string, unknown> };

const SCOPES = 'commands,chat:write,chat:write.public,channels:join,users:read,im:write';

/**
 * oauth.v2.access as Slack answers it: a code exchanged for a bot token once, and with token
 * rotation an expiring `xoxe.xoxb-…` access token with a single-use `xoxe-1-…` refresh token,
 * renewed with `grant_type=refresh_token` (client id and secret checked).
 */
export class FakeOAuth {
  readonly grants = new Map<string, OAuthGrant>();
  private readonly refreshTokens = new Map<string, { grant: OAuthGrant; used: boolean }>();
  private seq = 0;

  constructor(private readonly deps: FakeOAuthDeps) {}

  access(params: Record<string, unknown>): Answer {
    if (params['grant_type'] === 'refresh_token') return this.refresh(params);
    const grant = this.grants.get(String(params['code']));
    if (grant === undefined) return fail('invalid_code');
    if (!this.deps.rotation) {
      this.deps.issue(grant.botToken, grant.teamId);
      return ok(grant, grant.botToken);
    }
    return ok(grant, ...this.rotate(grant));
  }

  /** Every refresh token of `teamId` stops working (Slack lost or revoked them). */
  revokeRefreshTokens(teamId: string): void {
    for (const entry of this.refreshTokens.values()) if (entry.grant.teamId === teamId) entry.used = true;
  }

  private refresh(params: Record<string, unknown>): Answer {
    if (params['client_id'] !== this.deps.clientId) return fail('invalid_client_id');
    if (params['client_secret'] !== this.deps.clientSecret) return fail('bad_client_secret');
    const entry = this.refreshTokens.get(String(params['refresh_token']));
    if (entry === undefined || entry.used) return fail('invalid_refresh_token');
    entry.used = true;
    return ok(entry.grant, ...this.rotate(entry.grant));
  }

  private rotate(grant: OAuthGrant): [string, string, number] {
    this.seq += 1;
    const access = `xoxe.${grant.botToken}-${this.seq}`;
    const refresh = `xoxe-1-${grant.teamId}-refresh-${this.seq}`;
    this.deps.issue(access, grant.teamId, this.deps.now() + this.deps.lifetimeSeconds * 1000);
    this.refreshTokens.set(refresh, { grant, used: false });
    return [access, refresh, this.deps.lifetimeSeconds];
  }
}

function fail(error: string): Answer {
  return { status: 200, body: { ok: false, error } };
}

function ok(grant: OAuthGrant, accessToken: string, refreshToken?: string, expiresIn?: number): Answer {
  return {
    status: 200,
    body: {
      ok: true,
      app_id: 'A0FAKE',
      authed_user: { id: grant.userId },
      scope: SCOPES,
      token_type: 'bot',
      access_token: accessToken,
      ...(refreshToken === undefined ? {} : { refresh_token: refreshToken, expires_in: expiresIn }),
      bot_user_id: `U${grant.teamId}BOT`,
      team: { id: grant.teamId, name: grant.teamName },
      enterprise: null,
      is_enterprise_install: false,
    },
  };
}
