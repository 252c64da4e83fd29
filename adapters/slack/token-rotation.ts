import { createHash } from 'node:crypto';
import type { Installation, InstallationQuery, InstallationStore, webApi } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';
import { slackErrorCode } from './error-mapping.js';

/**
 * Refresh an access token when less than this is left. Bolt's own `authorize` refreshes inside a
 * two-hour window with no coordination; refreshing a little earlier than it means every refresh
 * goes through here (one at a time per workspace) and Bolt never burns a refresh token itself.
 */
export const ROTATION_MARGIN_MS = 2 * 60 * 60_000 + 5 * 60_000;

/** How long a loser of a refresh race waits for the winner's tokens to reach the shared store. */
const ADOPT_DELAYS_MS = [50, 250, 1000];

export interface TokenRotationDeps {
  /** The sealed installation store; refreshed tokens are written back through it. */
  store: InstallationStore;
  /** A client without a token, pointed at the Slack API the installs came from. */
  client: webApi.WebClient;
  clientId: string;
  clientSecret: string;
  logger: Logger;
  /** Clock for expiry, in ms. Default `Date.now`. */
  now?: () => number;
  marginMs?: number;
}

export interface TokenRotation {
  /** The installation store Bolt and the delivery path read: every fetch comes back with fresh tokens. */
  store: InstallationStore;
  /**
   * Slack answered `token_expired` for `usedToken` although its expiry had not come on our
   * clock: refresh it now (once, shared) unless another caller already has, and return the
   * installation to use.
   */
  refreshExpired(query: InstallationQuery<boolean>, usedToken: string): Promise<Installation>;
}

type Holder = {
  token?: string | undefined;
  refreshToken?: string | undefined;
  expiresAt?: number | undefined;
};
type RefreshAnswer = { access_token?: string; refresh_token?: string; expires_in?: number };

function keyOf(query: InstallationQuery<boolean>): string {
  return query.isEnterpriseInstall ? `enterprise:${query.enterpriseId}` : `team:${query.teamId}`;
}

function holders(installation: Installation): Holder[] {
  const all: (Holder | undefined | null)[] = [installation.bot, installation.user];
  return all.filter((h): h is Holder => h !== undefined && h !== null);
}

/** Never the refresh token itself: only enough to recognise it again. */
function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The error a refused refresh gives, for one that is known dead without asking Slack again. */
function refusedRefresh(): Error {
  return Object.assign(new Error('An API error occurred: invalid_refresh_token'), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error: 'invalid_refresh_token' },
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Slack token rotation (`token_rotation_enabled`): access tokens live 12 hours and come with a
 * single-use refresh token. Every read of an installation refreshes what is about to expire
 * before anyone posts with it; refreshes of one workspace are shared by concurrent callers, and
 * a refresh refused because another instance used the refresh token first adopts that
 * instance's tokens from the shared store. A refresh token Slack refuses for good is logged once
 * and answered as `invalid_refresh_token` (the workspace's channels are then treated as revoked).
 */
export function createTokenRotation(deps: TokenRotationDeps): TokenRotation {
  const now = deps.now ?? Date.now;
  const margin = deps.marginMs ?? ROTATION_MARGIN_MS;
  const inFlight = new Map<string, Promise<Installation>>();
  /** Refresh tokens Slack refused, by workspace: not asked about (or logged) again. */
  const dead = new Set<string>();

  const expiring = (holder: Holder) =>
    holder.refreshToken !== undefined &&
    typeof holder.expiresAt === 'number' &&
    holder.expiresAt * 1000 - now() <= margin;

  async function refreshHolder(holder: Holder): Promise<void> {
    const answer = (await deps.client.oauth.v2.access({
      client_id: deps.clientId,
      client_secret: deps.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: holder.refreshToken ?? '',
    })) as RefreshAnswer;
    if (answer.access_token === undefined || answer.refresh_token === undefined)
      throw new Error('oauth.v2.access answered a refresh without the new tokens');
    holder.token = answer.access_token;
    holder.refreshToken = answer.refresh_token;
    holder.expiresAt = Math.floor(now() / 1000) + (answer.expires_in ?? 12 * 60 * 60);
  }

  /**
   * The refresh was refused: if another instance refreshed first, its tokens reach the shared
   * store within moments, so look again before giving the installation up.
   */
  async function adoptOrFail(query: InstallationQuery<boolean>, used: string, error: unknown) {
    for (const ms of ADOPT_DELAYS_MS) {
      const stored = await deps.store.fetchInstallation(query);
      if (!holders(stored).some((holder) => holder.refreshToken === used)) return stored;
      await delay(ms);
    }
    const code = slackErrorCode(error);
    if (code === 'invalid_refresh_token' || code === 'token_revoked') {
      dead.add(`${keyOf(query)}:${fingerprint(used)}`);
      deps.logger.warn(
        { workspace: keyOf(query), code },
        'Slack refused the refresh token of this workspace: its deliveries stop until the app is reinstalled there',
      );
    }
    throw error;
  }

  /**
   * The workspace may have uninstalled the app while Slack answered: writing then would bring
   * its tokens back, so the write needs the installation still there (else "No Slack installation").
   */
  async function save(query: InstallationQuery<boolean>, installation: Installation): Promise<void> {
    await deps.store.fetchInstallation(query);
    await deps.store.storeInstallation(installation);
  }

  async function refresh(query: InstallationQuery<boolean>, usedToken?: string): Promise<Installation> {
    const installation = await deps.store.fetchInstallation(query);
    const due = holders(installation).filter(
      (holder) =>
        holder.refreshToken !== undefined &&
        (expiring(holder) || (usedToken !== undefined && holder.token === usedToken)),
    );
    if (due.length === 0) return installation;
    let refreshed = 0;
    for (const holder of due) {
      const used = holder.refreshToken ?? '';
      const isBot = holder === installation.bot;
      // Read from the store just now, so nobody has replaced the refused refresh token since.
      if (dead.has(`${keyOf(query)}:${fingerprint(used)}`)) {
        if (isBot) throw refusedRefresh();
        continue;
      }
      try {
        await refreshHolder(holder);
        refreshed += 1;
      } catch (error) {
        if (slackErrorCode(error) === undefined) {
          // Slack unreachable: a token that has not expired yet still works meanwhile.
          const stillValid = typeof holder.expiresAt === 'number' && holder.expiresAt * 1000 > now();
          if ((stillValid && usedToken === undefined) || !isBot) continue;
          throw error;
        }
        // Whatever was refreshed already is single-use history: keep the new tokens first.
        if (refreshed > 0) await save(query, installation);
        if (!isBot) {
          // The bot never posts with a user token; a dead one must not stop its deliveries.
          await adoptOrFail(query, used, error).catch(() => undefined);
          continue;
        }
        return adoptOrFail(query, used, error);
      }
    }
    if (refreshed === 0) return installation;
    await save(query, installation);
    deps.logger.info({ workspace: keyOf(query), refreshed }, 'refreshed Slack access tokens');
    return installation;
  }

  /** One refresh per workspace at a time; whoever asks meanwhile gets its result. */
  function shared(query: InstallationQuery<boolean>, usedToken?: string): Promise<Installation> {
    const key = keyOf(query);
    const running = inFlight.get(key);
    if (running !== undefined) return running;
    const started = refresh(query, usedToken).finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  }

  const store: InstallationStore = {
    storeInstallation: (installation, logger) => deps.store.storeInstallation(installation, logger),
    deleteInstallation: (query, logger) =>
      deps.store.deleteInstallation?.(query, logger) ?? Promise.resolve(),
    async fetchInstallation(query) {
      const running = inFlight.get(keyOf(query));
      if (running !== undefined) return running;
      const installation = await deps.store.fetchInstallation(query);
      return holders(installation).some(expiring) ? shared(query) : installation;
    },
  };

  return {
    store,
    async refreshExpired(query, usedToken) {
      const running = inFlight.get(keyOf(query));
      if (running !== undefined) await running.catch(() => undefined);
      return shared(query, usedToken);
    },
  };
}
