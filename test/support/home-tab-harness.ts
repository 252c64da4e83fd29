import { createSlackAdapter, type SlackAdapterEvent } from '../../adapters/slack/index.js';
import { createHomeService, type HomeServiceDeps } from '../../src/commands/index.js';
import type { ChatAdapter, WindowLimit } from '../../src/ports/index.js';
import { FakeSlackApi, type FakeSlackOptions } from '../fakes/slack/fake-slack-api.js';
import { postAppHomeOpened, postHomeButton } from '../fakes/slack/home-events.js';
import { createCapturingLogger } from './capturing-logger.js';
import { ADMIN_ID, type Harness, startHarness } from './command-harness.js';
import { type MountServer, startMountServer } from './mount-server.js';

export const HOME_SECRET = 'home-signing-secret';
/** The workspace `Harness.run` subscribes in. */
export const TEAM = 'T0123';
export const ADMIN = 'UADMIN';
export const OWNER = 'UOWNER';
export const MEMBER = 'UMEMBER';
export { ADMIN_ID };

/**
 * The real Slack adapter (HTTP receiver, Bolt) with the real home service over the real command
 * handler and subscriptions, against the fake Slack Web API: the Home tab end to end.
 */
export interface HomeTabHarness {
  h: Harness;
  slack: FakeSlackApi;
  server: MountServer;
  adapter: ChatAdapter;
  events: SlackAdapterEvent[];
  open(userId: string, tab?: 'home' | 'messages'): Promise<Response>;
  press(
    userId: string,
    button: { action_id: string; value: string },
    extra?: { timestamp?: number; signWith?: string },
  ): Promise<Response>;
  /** views.publish calls answered ok for `userId` so far. */
  publishedTo(userId: string): number;
  /** Resolves once `userId` has had `count` views published in all. */
  waitForPublishes(userId: string, count: number): Promise<void>;
  close(): Promise<void>;
}

/** What the home service reads, from a command harness (status as the harness's: no feed polled). */
export function homeDeps(h: Harness): HomeServiceDeps['deps'] {
  return {
    subscriptions: h.subscriptions,
    clock: h.clock,
    adminUserIds: [ADMIN_ID],
    defaultRemindMinutes: 15,
    zones: h.zones,
    status: async () => ({
      quotas: h.client.ledger.snapshot(),
      connection: h.client.connection(),
      feeds: [],
      pausedSubscriptions: (await h.subscriptions.index()).paused(),
      subscribedFeeds: new Set(),
      isPoller: true,
    }),
  };
}

export async function startHomeTab(
  options: { fake?: FakeSlackOptions; publishLimit?: WindowLimit } = {},
): Promise<HomeTabHarness> {
  const h = await startHarness();
  const slack = await new FakeSlackApi(options.fake).start();
  slack.addToken('xoxb-home', TEAM);
  slack.addUser(ADMIN, { is_admin: true });
  slack.addUser(OWNER, { is_owner: true });
  slack.addUser(MEMBER);
  const server = await startMountServer();
  const logger = createCapturingLogger();
  const home = createHomeService({ deps: homeDeps(h), commands: h.handler, store: h.store.keyv, logger });
  const events: SlackAdapterEvent[] = [];
  const adapter = createSlackAdapter({
    botToken: 'xoxb-home',
    signingSecret: HOME_SECRET,
    apiUrl: slack.apiUrl,
    logger,
    onEvent: (event) => events.push(event),
    ...(options.publishLimit === undefined ? {} : { homePublishLimit: options.publishLimit }),
  });
  await adapter.start({ http: server.http, commands: h.handler, logger, home });
  const publishedTo = (userId: string) =>
    slack.callsTo('views.publish').filter((c) => c.params['user_id'] === userId && c.status === 200).length;
  return {
    h,
    slack,
    server,
    adapter,
    events,
    open: (userId, tab = 'home') => postAppHomeOpened(server.url, HOME_SECRET, TEAM, userId, tab),
    press: (userId, button, extra = {}) =>
      postHomeButton(server.url, HOME_SECRET, { teamId: TEAM, userId, button, ...extra }),
    publishedTo,
    async waitForPublishes(userId, count) {
      while (publishedTo(userId) < count) {
        await slack
          .waitForCall((c) => c.method === 'views.publish' && publishedTo(userId) >= count)
          .catch(() => {});
        if (publishedTo(userId) < count) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      await adapter.stop();
      await server.close();
      await slack.close();
      await h.close();
    },
  };
}
