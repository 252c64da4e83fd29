import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import {
  type KeyValueStore,
  type SecretSealer,
  SLACK_INSTALLATION_KEYS,
  SLACK_INSTALLATION_SECRETS,
} from '../../src/ports/index.js';

const PREFIX = SLACK_INSTALLATION_KEYS.prefix;

/** Org-wide (Enterprise Grid) installs are keyed by enterprise, all others by team. */
function keyFor(
  isEnterpriseInstall: boolean,
  enterpriseId: string | undefined,
  teamId: string | undefined,
): string {
  if (isEnterpriseInstall && enterpriseId !== undefined)
    return SLACK_INSTALLATION_KEYS.enterprise(enterpriseId);
  if (teamId !== undefined) return SLACK_INSTALLATION_KEYS.team(teamId);
  throw new Error('Slack installation has neither a team nor an enterprise id');
}

/**
 * A copy of the installation with each credential in it (SLACK_INSTALLATION_SECRETS) passed
 * through `change`. The rest (team, scopes, installer, expiry) stays readable, so an export can
 * show it.
 */
function mapSecrets(installation: Installation, change: (secret: string) => string): Installation {
  const copy = structuredClone(installation) as unknown as Record<
    string,
    Record<string, unknown> | undefined
  >;
  for (const [holder, field] of SLACK_INSTALLATION_SECRETS) {
    const place = copy[holder];
    const secret = place?.[field];
    if (place !== undefined && typeof secret === 'string') place[field] = change(secret);
  }
  return copy as unknown as Installation;
}

/**
 * Bolt's installation store on the bot's own key-value store, so installs survive restarts and
 * are shared by every instance (a file store would be wiped by a dyno restart). Tokens are
 * sealed (encrypted at rest) before they are written; a read of one sealed under the previous
 * key, or written before encryption, writes it back sealed under the current key.
 */
export function createKeyValueInstallationStore(
  store: KeyValueStore,
  sealer: SecretSealer,
): InstallationStore {
  return {
    async storeInstallation(installation: Installation): Promise<void> {
      const key = keyFor(
        installation.isEnterpriseInstall === true,
        installation.enterprise?.id,
        installation.team?.id,
      );
      await store.set(
        key,
        mapSecrets(installation, (secret) => sealer.seal(secret)),
      );
    },
    async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
      const key = keyFor(query.isEnterpriseInstall, query.enterpriseId, query.teamId);
      const stored = await store.get<Installation>(key);
      // Bolt turns this throw into an AuthorizationError for the request at hand.
      if (stored === undefined) throw new Error(`No Slack installation for ${key.slice(PREFIX.length)}`);
      let stale = false;
      const installation = mapSecrets(stored, (secret) => {
        const opened = sealer.open(secret);
        stale ||= opened.stale;
        return opened.plaintext;
      });
      if (stale)
        await store.set(
          key,
          mapSecrets(installation, (secret) => sealer.seal(secret)),
        );
      return installation;
    },
    async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
      await store.delete(keyFor(query.isEnterpriseInstall, query.enterpriseId, query.teamId));
    },
  };
}
