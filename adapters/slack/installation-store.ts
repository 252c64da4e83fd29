import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { type KeyValueStore, SLACK_INSTALLATION_KEYS } from '../../src/ports/index.js';

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
 * Bolt's installation store on the bot's own key-value store, so installs survive restarts and
 * are shared by every instance (a file store would be wiped by a dyno restart).
 */
export function createKeyValueInstallationStore(store: KeyValueStore): InstallationStore {
  return {
    async storeInstallation(installation: Installation): Promise<void> {
      const key = keyFor(
        installation.isEnterpriseInstall === true,
        installation.enterprise?.id,
        installation.team?.id,
      );
      await store.set(key, installation);
    },
    async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
      const key = keyFor(query.isEnterpriseInstall, query.enterpriseId, query.teamId);
      const installation = await store.get<Installation>(key);
      // Bolt turns this throw into an AuthorizationError for the request at hand.
      if (installation === undefined)
        throw new Error(`No Slack installation for ${key.slice(PREFIX.length)}`);
      return installation;
    },
    async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
      await store.delete(keyFor(query.isEnterpriseInstall, query.enterpriseId, query.teamId));
    },
  };
}
