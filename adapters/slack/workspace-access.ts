import type { InstallationStore, webApi } from '@slack/bolt';
import type { Installation, Logger, WorkspaceAccess } from '../../src/ports/index.js';
import type { AdminLookup } from './admin-lookup.js';

export interface SlackAccessDeps {
  client: webApi.WebClient;
  /** The single-workspace bot token; absent with a multi-workspace install. */
  botToken: string | undefined;
  installationStore: InstallationStore | undefined;
  clientFor(workspaceId: string): Promise<webApi.WebClient | undefined>;
  admin: AdminLookup;
  logger: Logger;
  now: () => number;
  /** How long the single token's workspace (auth.test) is trusted. Default an hour. */
  ttlMs?: number;
}

/**
 * Slack's answers for the control panel. A single-token app is installed in one workspace, the
 * one auth.test names, and every channel it can post to is in it (reading a channel's workspace
 * would need `channels:read`, which the app does not ask for); a multi-workspace install is in the
 * workspaces it holds an installation for. Who may change a channel is who may run
 * `/directory subscribe` there: a workspace admin or owner (users.info, cached like the commands').
 */
export function createSlackWorkspaceAccess(deps: SlackAccessDeps): WorkspaceAccess {
  const ttlMs = deps.ttlMs ?? 60 * 60_000;
  let sole: { value: Installation | undefined; expiresAt: number } | undefined;

  async function soleWorkspace(): Promise<Installation | undefined> {
    if (deps.botToken === undefined) return undefined;
    const now = deps.now();
    if (sole !== undefined && sole.expiresAt > now) return sole.value;
    try {
      const result = await deps.client.auth.test({ token: deps.botToken });
      const id = typeof result.team_id === 'string' ? result.team_id : undefined;
      const value =
        id === undefined ? undefined : { id, name: typeof result.team === 'string' ? result.team : id };
      sole = { value, expiresAt: now + ttlMs };
      return value;
    } catch (error) {
      deps.logger.warn({ err: error }, 'auth.test failed; the panel shows the last workspace known');
      return sole?.value;
    }
  }

  async function installation(workspaceId: string): Promise<Installation | undefined> {
    if (deps.botToken !== undefined) {
      const only = await soleWorkspace();
      return only?.id === workspaceId ? only : undefined;
    }
    if (deps.installationStore === undefined) return undefined;
    try {
      const found = await deps.installationStore.fetchInstallation({
        teamId: workspaceId,
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      return found.bot?.token === undefined
        ? undefined
        : { id: workspaceId, name: found.team?.name ?? workspaceId };
    } catch {
      // No installation for that team: the bot is not there.
      return undefined;
    }
  }

  return {
    async installations() {
      const only = await soleWorkspace();
      return only === undefined ? [] : [only];
    },
    installation,
    async workspaceOfChannel() {
      return (await soleWorkspace())?.id;
    },
    async mayManageChannel(workspaceId, _channelId, userId) {
      if ((await installation(workspaceId)) === undefined) return false;
      const client = await deps.clientFor(workspaceId);
      if (client === undefined) return false;
      return deps.admin.isAdminOrOwner(client, workspaceId, userId);
    },
  };
}
