import type { webApi } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';

export interface AdminLookupDeps {
  logger: Logger;
  /** How long one users.info answer is trusted; a demoted admin keeps rights at most this long. */
  ttlMs: number;
  now: () => number;
  /** Most answers kept at once. Default 1000: people who manage channels, not the whole workspace. */
  maxEntries?: number;
}

export interface AdminLookup {
  /** True when Slack says the user is a workspace admin or owner (users.info). False when unsure. */
  isAdminOrOwner(client: webApi.WebClient, teamId: string | undefined, userId: string): Promise<boolean>;
  /** How many answers are cached right now (bounded by `maxEntries`). */
  readonly size: number;
}

const DEFAULT_MAX_ENTRIES = 1000;

/**
 * Answers "may this person change channel settings" from users.info, cached briefly so a burst of
 * commands does not spend the Tier 4 budget. A failed lookup answers false: refusing a change is
 * safe, granting one is not. The cache is bounded: expired answers go on every insert and the
 * oldest go past `maxEntries`, so a long-running bot in many workspaces does not grow without end.
 */
export function createAdminLookup(deps: AdminLookupDeps): AdminLookup {
  const maxEntries = Math.max(1, deps.maxEntries ?? DEFAULT_MAX_ENTRIES);
  // Map keeps insertion order, and every entry lives equally long, so the first key is the one
  // that expires soonest: evicting from the front drops the oldest answers.
  const cache = new Map<string, { value: boolean; expiresAt: number }>();

  function remember(key: string, value: boolean, now: number): void {
    for (const [cached, entry] of cache) {
      if (entry.expiresAt <= now) cache.delete(cached);
    }
    cache.delete(key);
    while (cache.size >= maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done === true) break;
      cache.delete(oldest.value);
    }
    cache.set(key, { value, expiresAt: now + deps.ttlMs });
  }

  return {
    get size() {
      return cache.size;
    },
    async isAdminOrOwner(client, teamId, userId) {
      const key = `${teamId ?? ''}:${userId}`;
      const now = deps.now();
      const hit = cache.get(key);
      if (hit !== undefined && hit.expiresAt > now) return hit.value;
      try {
        const result = await client.users.info({ user: userId });
        const user = result.user;
        const value = user?.is_admin === true || user?.is_owner === true || user?.is_primary_owner === true;
        remember(key, value, now);
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
