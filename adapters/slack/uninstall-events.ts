import type { App } from '@slack/bolt';
import type { AdapterContext, Logger } from '../../src/ports/index.js';

/** The envelope fields that say which workspace an event is about. */
interface EventEnvelope {
  team_id?: string;
  enterprise_id?: string;
  is_enterprise_install?: boolean;
}

/** The workspace an install belongs to: its team, or its enterprise for an org-wide install. */
function workspaceIdOf(body: EventEnvelope): string | undefined {
  return body.is_enterprise_install === true ? body.enterprise_id : body.team_id;
}

/**
 * Slack's word that the app is gone from a workspace: `app_uninstalled`, or `tokens_revoked`
 * naming a bot token (a revoked user token leaves the bot installed). Either hands the workspace
 * to the core, which deletes everything it holds about it. Bolt runs both without authorizing,
 * since the installation they would authorize with is exactly what is gone.
 */
export function bindUninstallEvents(
  app: App,
  workspaceRemoved: NonNullable<AdapterContext['workspaceRemoved']>,
  logger: Logger,
): void {
  app.event('app_uninstalled', async ({ body }) => {
    const id = workspaceIdOf(body);
    if (id === undefined) logger.warn('app_uninstalled without a team id ignored');
    else await workspaceRemoved({ platform: 'slack', id }, 'app_uninstalled');
  });
  app.event('tokens_revoked', async ({ body, event }) => {
    if ((event.tokens.bot ?? []).length === 0) return;
    const id = workspaceIdOf(body);
    if (id === undefined) logger.warn('tokens_revoked without a team id ignored');
    else await workspaceRemoved({ platform: 'slack', id }, 'tokens_revoked');
  });
}
