import type { InstallationStore, webApi } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';

export interface WorkspaceZoneDeps {
  client: webApi.WebClient;
  /** The multi-workspace installs; absent with a single bot token (no installer is recorded). */
  installationStore: InstallationStore | undefined;
  logger: Logger;
  now: () => number;
  /** How long an answer (a zone, or none) is trusted. Default 6 hours: people rarely move. */
  ttlMs?: number;
}

const DEFAULT_TTL_MS = 6 * 60 * 60_000;
/** A failed lookup is asked again sooner than an answer, but not on every schedule computed. */
const FAILURE_TTL_MS = 5 * 60_000;

/**
 * A workspace's default time zone: the `tz` Slack has for the person who installed the app
 * (users.info, `users:read`), from the OAuth install record. Cached per workspace, so schedules
 * cost Slack one call per workspace every few hours. A single-token install records no installer,
 * and a failed call answers the zone last known, else undefined: the core then falls back to UTC.
 */
export function createWorkspaceZones(deps: WorkspaceZoneDeps) {
  const ttlMs = deps.ttlMs ?? DEFAULT_TTL_MS;
  const cache = new Map<string, { zone: string | undefined; expiresAt: number }>();

  async function lookUp(
    workspaceId: string,
  ): Promise<{ zone: string | undefined; ttl: number; failed?: true }> {
    const store = deps.installationStore;
    if (store === undefined) return { zone: undefined, ttl: ttlMs };
    try {
      const installation = await store.fetchInstallation({
        teamId: workspaceId,
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      const installer = installation.user?.id;
      const token = installation.bot?.token;
      if (installer === undefined || token === undefined) return { zone: undefined, ttl: ttlMs };
      const result = await deps.client.users.info({ token, user: installer });
      const tz = result.user?.tz;
      return { zone: typeof tz === 'string' && tz !== '' ? tz : undefined, ttl: ttlMs };
    } catch (error) {
      deps.logger.warn(
        { err: error, workspaceId },
        "could not read the installer's time zone; schedules keep the last one known (else UTC)",
      );
      return { zone: undefined, ttl: FAILURE_TTL_MS, failed: true };
    }
  }

  return async function workspaceTimeZone(workspaceId: string | undefined): Promise<string | undefined> {
    if (workspaceId === undefined) return undefined;
    const now = deps.now();
    const hit = cache.get(workspaceId);
    if (hit !== undefined && hit.expiresAt > now) return hit.zone;
    const answer = await lookUp(workspaceId);
    // A failed call keeps the zone last known: switching a workspace's schedules to UTC for a
    // blip would post a 09:00 digest at the UTC slot and again at the local one.
    const zone = answer.failed ? hit?.zone : answer.zone;
    cache.set(workspaceId, { zone, expiresAt: now + answer.ttl });
    return zone;
  };
}
