import type { webApi } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';

export interface AdminLookupDeps {
  logger: Logger;
  /** How long one users.info answer is trusted; a demoted admin keeps rights at most this long. */
  ttlMs: number;
  now: () => number;
}

export interface AdminLookup {
  /** True when Slack says the user is a workspace admin or owner (users.info). False when unsure. */
  isAdminOrOwner(client: webApi.WebClient, teamId: string | undefined, userId: string): Promise<boolean>;
}

/**
 * Answers "may this person change channel settings" from users.info, cached briefly so a burst of
 * commands does not spend the Tier 4 budget. A failed lookup answers false: refusing a change is
 * safe, granting one is not.
 */
export function createAdminLookup(deps: AdminLookupDeps): AdminLookup {
  const cache = new Map<string, { value: boolean; expiresAt: number }>();
  return {
    async isAdminOrOwner(client, teamId, userId) {
      const key = `${teamId ?? ''}:${userId}`;
      const now = deps.now();
      const hit = cache.get(key);
      if (hit !== undefined && hit.expiresAt > now) return hit.value;
      try {
        const result = await client.users.info({ user: userId });
        const user = result.user;
        const value = user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true;
        cache.set(key, { value, expiresAt: now + deps.ttlMs });
        return value;
      } catch (error) {
        deps.logger.warn(
          { err: error, userId, teamId },
          'users.info failed; treating the user as not an admin',
        );
        return false;
      }
    },
  };
}
