import { randomUUID } from 'node:crypto';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { MESSAGE_RENDERERS } from '../../src/app/platforms.js';
import {
  describePause,
  describeSubscription,
  previewSubscription,
  scheduleClock,
} from '../../src/commands/index.js';
import { formatMessage } from '../../src/messages/index.js';
import {
  createPanel,
  type DeliveryLogRecord,
  discordSignIn,
  type ItemExplanation,
  type PanelOptions,
  slackSignIn,
} from '../../src/panel/index.js';
import type { Message, WorkspaceAccess } from '../../src/ports/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from './capturing-logger.js';
import { type Harness, startHarness } from './command-harness.js';
import { startMountServer } from './mount-server.js';

export const SLACK_BOT_TOKEN = 'xoxb-panel-test-token';
export const SLACK_CLIENT = { id: '1111.2222', secret: 'slack-client-secret-value' };
export const DISCORD_TOKEN = 'discord-bot-token-value';
export const DISCORD_CLIENT = { id: '100000000000000001', secret: 'discord-client-secret-value' };
/** Sign-in attempts allowed per address per minute in the harness. */
export const SIGN_IN_LIMIT = 100;
export const SESSION_SECRET = 'panel-session-secret-0123456789abcdef';
/** The Slack workspace the single-token bot is installed in, and one it is not. */
export const TEAM = 'T0PANEL01';
export const OTHER_TEAM = 'T0OTHER99';
/** Two Discord servers the bot is in. */
export const GUILD_A = '300000000000000001';
export const GUILD_B = '300000000000000002';

export interface PanelHarness {
  url: string;
  h: Harness;
  slack: FakeSlackApi;
  discord: FakeDiscordRest;
  announced: { platform: string; channelId: string; message: Message }[];
  deliveries: Map<string, DeliveryLogRecord[]>;
  explanations: Map<string, ItemExplanation>;
  logs: ReturnType<typeof createCapturingLogger>;
  /** Every request the panel answered, with its server time. */
  served: { method: string; path: string; ms: number }[];
  close(): Promise<void>;
}

/**
 * The control panel as the bot serves it, on a real HTTP server: the real command handler over a
 * real emulator and SQLite store, the real Slack and Discord adapters' answers about people (not
 * started: only their `access`), asking a fake Slack and a fake Discord that also serve Sign in
 * with Slack and Discord OAuth2. The delivery log and "why" are test doubles of their contract.
 */
export async function startPanelHarness(options: Partial<PanelOptions> = {}): Promise<PanelHarness> {
  const slack = await new FakeSlackApi({
    clientId: SLACK_CLIENT.id,
    clientSecret: SLACK_CLIENT.secret,
  }).start();
  slack.addToken(SLACK_BOT_TOKEN, TEAM);
  const discord = new FakeDiscordRest({ token: DISCORD_TOKEN, oauthClient: DISCORD_CLIENT });
  await discord.listen();
  const logs = createCapturingLogger();
  const server = await startMountServer();
  const h = await startHarness({ history: true });
  const history = h.history;
  if (history === undefined) throw new Error('the harness keeps no history');
  const slackAdapter = createSlackAdapter({
    botToken: SLACK_BOT_TOKEN,
    signingSecret: 'signing-secret',
    apiUrl: slack.apiUrl,
    logger: logs,
  });
  const discordAdapter = createDiscordAdapter({
    token: DISCORD_TOKEN,
    applicationId: DISCORD_CLIENT.id,
    apiUrl: discord.url,
    gateway: false,
    logger: logs,
  });
  const access = new Map<string, WorkspaceAccess>();
  if (slackAdapter.access) access.set('slack', slackAdapter.access);
  if (discordAdapter.access) access.set('discord', discordAdapter.access);
  const slackRedirect = `${server.url}/signin/slack/callback`;
  const discordRedirect = `${server.url}/signin/discord/callback`;
  slack.oidc.redirectUris.push(slackRedirect);
  discord.oauth.allowRedirect(discordRedirect);
  const announced: PanelHarness['announced'] = [];
  const deliveries = new Map<string, DeliveryLogRecord[]>();
  const explanations = new Map<string, ItemExplanation>();
  const panel = createPanel({
    commands: h.handler,
    subscriptions: h.subscriptions,
    history,
    status: async () => ({
      quotas: h.client.ledger.snapshot(),
      feeds: [],
      pausedSubscriptions: [],
      subscribedFeeds: new Set(),
      isPoller: true,
    }),
    queueDepth: () => 0,
    describe: async (s) =>
      describeSubscription(s, 15, await scheduleClock({ clock: h.clock, zones: h.zones }, s)),
    describePause: (s) => (s.paused ? describePause(s.paused, h.clock.now()) : ''),
    preview: async (feed, filters, format) => {
      const message = await previewSubscription(h.client, feed, filters, h.clock.now());
      return message && formatMessage(message, format);
    },
    renderers: { slack: MESSAGE_RENDERERS.slack, discord: MESSAGE_RENDERERS.discord },
    announce: async (where, message) => {
      announced.push({ platform: where.platform, channelId: where.channelId, message });
    },
    access,
    deliveryLog: { recent: async (key, limit = 50) => (deliveries.get(key) ?? []).slice(0, limit) },
    explain: async ({ item }) => explanations.get(item) ?? { notice: `No item ${item}.`, lines: [] },
    adminUserIds: [],
    operatorIds: [],
    providers: [
      slackSignIn({
        apiUrl: slack.apiUrl,
        clientId: SLACK_CLIENT.id,
        clientSecret: SLACK_CLIENT.secret,
        redirectUri: slackRedirect,
      }),
      discordSignIn({
        apiUrl: discord.url,
        clientId: DISCORD_CLIENT.id,
        clientSecret: DISCORD_CLIENT.secret,
        redirectUri: discordRedirect,
      }),
    ],
    localSignIn: false,
    sessions: h.store.keyv,
    sessionSecrets: [SESSION_SECRET],
    clock: h.clock,
    logger: logs,
    trustProxy: 'loopback',
    // High enough for a whole test file from one address; the limit's own test uses another address.
    signInLimit: { limit: SIGN_IN_LIMIT, windowMs: 60_000 },
    ...options,
  });
  const served: PanelHarness['served'] = [];
  server.http.mount('/', (req, res) => {
    // Server time: from the request to the last byte of the answer handed to the socket.
    const started = performance.now();
    res.once('finish', () =>
      served.push({ method: req.method ?? '', path: req.url ?? '', ms: performance.now() - started }),
    );
    return panel.handler(req, res);
  });
  return {
    url: server.url,
    h,
    slack,
    discord,
    announced,
    deliveries,
    explanations,
    logs,
    served,
    async close() {
      await server.close();
      await discordAdapter.stop();
      await slackAdapter.stop();
      await h.close();
      await discord.close();
      await slack.close();
    },
  };
}

/** A unique suffix, so two tests' subscriptions never meet. */
export const unique = () => randomUUID().slice(0, 8);
