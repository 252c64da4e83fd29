import type { App, webApi } from '@slack/bolt';
import type { HomeAction, HomeService, HomeViewer, Logger, WindowLimit } from '../../src/ports/index.js';
import type { AdminLookup } from './admin-lookup.js';
import { rateLimitRetryAfterMs } from './error-mapping.js';
import type { SlackAdapterEvent } from './events.js';
import { createHomePublisher, type HomePublisher } from './home-publisher.js';
import { HOME_ACTION_IDS, parseHomeButtonValue, renderHomeView } from './render-home.js';

export interface HomeTabDeps {
  app: App;
  home: HomeService;
  admin: AdminLookup;
  /** A client holding the workspace's bot token; undefined when the bot has none for it. */
  clientFor(workspaceId: string): Promise<webApi.WebClient | undefined>;
  /** The bot serves one workspace (a single bot token). */
  soleWorkspace: boolean;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
  publishLimit?: WindowLimit;
  now?: () => number;
}

/**
 * Binds the App Home tab: `app_home_opened` (the Home tab, not Messages) publishes the viewer's
 * home, each `home:v1:*` button runs its command through the core and the home is republished
 * with the answer, and whenever the core says a subscription change made homes stale, they are
 * republished, paced per workspace within views.publish's tier. Every publish goes through the
 * one paced publisher, so opening, clicking and changes all count against the same budget.
 */
export function bindHomeTab(deps: HomeTabDeps): HomePublisher {
  const { app, home, logger } = deps;

  async function viewerOf(
    client: webApi.WebClient,
    workspaceId: string,
    userId: string,
  ): Promise<HomeViewer> {
    // users.info is asked only when the cached answer is older than the admin cache's TTL.
    const canManageChannels = await deps.admin.isAdminOrOwner(client, workspaceId, userId);
    return { platform: 'slack', workspaceId, userId, canManageChannels, soleWorkspace: deps.soleWorkspace };
  }

  const publisher = createHomePublisher({
    logger,
    ...(deps.publishLimit === undefined ? {} : { limit: deps.publishLimit }),
    ...(deps.now === undefined ? {} : { now: deps.now }),
    retryAfterOf: (error) => {
      const retryAfterMs = rateLimitRetryAfterMs(error);
      if (retryAfterMs !== undefined)
        deps.emit({ type: 'rate_limited', method: 'views.publish', retryAfterMs });
      return retryAfterMs;
    },
    async publish(workspaceId, userId) {
      const client = await deps.clientFor(workspaceId);
      if (client === undefined) return;
      const view = await home.view(await viewerOf(client, workspaceId, userId));
      // Our blocks are plain objects checked against Block Kit's limits, not the SDK's block union.
      const rendered = renderHomeView(view) as unknown as webApi.ViewsPublishArguments['view'];
      await client.views.publish({ user_id: userId, view: rendered });
      deps.emit({ type: 'home_published' });
    },
  });

  home.onStale('slack', (viewers) => {
    for (const viewer of viewers) publisher.request(viewer.workspaceId, viewer.userId);
  });

  app.event('app_home_opened', async ({ event, body }) => {
    // The Messages tab opens this event too; only the Home tab shows a view.
    if (event.tab !== 'home' || body.team_id === undefined) return;
    publisher.request(body.team_id, event.user);
  });

  for (const [action, actionId] of Object.entries(HOME_ACTION_IDS) as [HomeAction, string][]) {
    app.action(actionId, async ({ ack, body, action: pressed, client }) => {
      // Acked at once: the answer is the republished home, not the interaction response.
      await ack();
      if (body.type !== 'block_actions' || pressed.type !== 'button') return;
      const workspaceId = body.team?.id;
      const target = parseHomeButtonValue(pressed.value ?? '');
      if (workspaceId === undefined) return;
      if (target === undefined) {
        logger.warn({ actionId }, 'a home button with a value this release did not write; ignored');
        return;
      }
      const viewer = await viewerOf(client, workspaceId, body.user.id);
      const result = await home.act(viewer, action, target.channelId, target.subscriptionId);
      deps.emit({ type: 'home_action', action, refused: result.refused });
      // A change republishes every recent viewer's home, the presser's included; otherwise only theirs.
      if (!result.changed) publisher.request(workspaceId, body.user.id);
    });
  }
  return publisher;
}
