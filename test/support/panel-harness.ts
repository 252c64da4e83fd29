import { randomUUID } from 'node:crypto';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { panelAccounting } from '../../src/app/panel-wiring.js';
import { MESSAGE_RENDERERS } from '../../src/app/platforms.js';
import {
  describePause,
  describeSubscription,
  previewSubscription,
  scheduleClock,
} from '../../src/commands/index.js';
import { createItemComposer } from '../../src/engine/compose-item.js';
import { createEngine } from '../../src/engine/engine.js';
import { formatMessage } from '../../src/messages/index.js';
import { createPanel, discordSignIn, type PanelOptions, slackSignIn } from '../../src/panel/index.js';
import type { Message, WorkspaceAccess } from '../../src/ports/index.js';
import { directoryIdFor } from '../../src/store/directory-keys.js';
import { createZoneResolver } from '../../src/subscriptions/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from './capturing-logger.js';
import { type Harness, startHarness } from './command-harness.js';
import { TEST_SETTINGS } from './engine-harness.js';
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
  /** The engine delivering to the fake Slack and Discord, over the harness's store and emulator. */
  engine: ReturnType<typeof createEngine>;
  /** One poll of every wanted feed, delivered to the end: what the channels' logs and "why" then show. */
  pollAndDeliver(): Promise<void>;
  logs: ReturnType<typeof createCapturingLogger>;
  /** Every request the panel answered, with its server time. */
  served: { method: string; path: string; ms: number }[];
  close(): Promise<void>;
}

/**
 * The control panel as the bot serves it, on a real HTTP server: the real command handler over a
 * real emulator and SQLite store, the real Slack and Discord adapters (their answers about people;
 * the Slack one started on the panel's server as the bot starts it), asking a fake Slack and a fake
 * Discord that also serve Sign in with Slack and Discord OAuth2. A real engine over the same store
 * and emulator delivers through those adapters; the delivery log, "why" and held items are the
 * engine's, wired as the bot wires them (`panelAccounting`).
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
  // Mounted before the panel's `/`, as the bot's server routes `/slack/events` beside it.
  await slackAdapter.start({ http: server.http, commands: h.handler, logger: logs });
  const engine = createEngine({
    store: h.store,
    client: h.client,
    directoryId: directoryIdFor(h.emulator.url),
    adapters: [slackAdapter, discordAdapter],
    clock: h.clock,
    compose: createItemComposer(h.clock),
    settings: TEST_SETTINGS,
  });
  const zones = {
    channelZones: h.channelZones,
    resolver: createZoneResolver({ channelZones: h.channelZones }),
  };
  const accounting = panelAccounting(
    { directory: { baseUrl: undefined } },
    { client: h.client, engine, store: h.store, directoryId: directoryIdFor(h.emulator.url), zones },
    h.clock,
  );
  const panel = createPanel({
    commands: h.handler,
    subscriptions: h.subscriptions,
    history,
    status: async () => ({
      quotas: h.client.ledger.snapshot(),
      connection: h.client.connection(),
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
    ...accounting,
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
    engine,
    async pollAndDeliver() {
      engine.dispatcher.start();
      await engine.pollAllOnce();
      // The manual clock stands still: a second message to a channel would wait for its pacing
      // (a second on Slack) forever. Each tick moves it on a second and lets the dispatcher look.
      const ticking = setInterval(() => {
        h.clock.advance(1000);
        engine.dispatcher.wake();
      }, 100);
      try {
        await engine.dispatcher.drained();
      } finally {
        clearInterval(ticking);
      }
    },
    logs,
    served,
    async close() {
      await engine.stop();
      await engine.dispatcher.stop();
      await engine.deliveryLog.flushed();
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
