import { randomBytes, randomUUID } from 'node:crypto';
import type { Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { explainItem } from '../accounting/index.js';
import {
  describePause,
  describeSubscription,
  directoryLinks,
  previewSubscription,
  scheduleClock,
} from '../commands/index.js';
import type { Config } from '../config/config.js';
import { type DeliveryQueue, type OutboxEntry, openRedis } from '../delivery/index.js';
import { EMULATOR_WEB_URL } from '../emulator/index.js';
import type { Engine } from '../engine/index.js';
import { heldSummaries } from '../held-items/index.js';
import { formatMessage } from '../messages/index.js';
import {
  createPanel,
  discordSignIn,
  type Panel,
  type PanelOptions,
  type SignInProvider,
  slackSignIn,
} from '../panel/index.js';
import {
  type ChatAdapter,
  type Clock,
  type CommandHandler,
  type Logger,
  type Message,
  systemClock,
  type WorkspaceAccess,
} from '../ports/index.js';
import { SIGN_IN_LIMIT_KEYS } from '../store/index.js';
import { destinationKey } from '../subscriptions/index.js';
import { MESSAGE_RENDERERS } from './platforms.js';
import { isSandbox, storeNamespace } from './sandbox.js';
import { openWebhookAdmin } from './webhook-admin.js';
import { type CommandParts, statusReport, whyDesk } from './wiring.js';

/** How long one preview lookup is reused: a page reload or three formats cost one directory call. */
const PREVIEW_CACHE_MS = 60_000;

/** The configured ways to sign in: Slack's and Discord's OAuth clients, when PANEL_URL is set. */
function signInProviders(config: Config): SignInProvider[] {
  const { panel } = config;
  if (panel.url === undefined) return [];
  const providers: SignInProvider[] = [];
  if (panel.slack && config.slack) {
    providers.push(
      slackSignIn({
        apiUrl: config.slack.apiUrl,
        ...panel.slack,
        redirectUri: `${panel.url}/signin/slack/callback`,
      }),
    );
  }
  if (panel.discord && config.discord) {
    providers.push(
      discordSignIn({
        apiUrl: config.discord.apiUrl,
        ...panel.discord,
        redirectUri: `${panel.url}/signin/discord/callback`,
      }),
    );
  }
  return providers;
}

/**
 * What the panel shows of what became of items, from the running parts: the engine's delivery log,
 * the answer `/directory why` gives (src/accounting, over the same `whyDesk`) and the items the
 * channel's schedules hold. Exported so the panel's tests show the engine's real answers.
 */
export function panelAccounting(
  config: { directory: Pick<Config['directory'], 'baseUrl'> },
  parts: Required<Pick<CommandParts, 'zones'>> &
    Pick<CommandParts, 'client' | 'engine' | 'store' | 'directoryId'>,
  clock: Clock,
): Required<Pick<PanelOptions, 'deliveryLog' | 'explain' | 'held'>> {
  const { engine, client, zones, store } = parts;
  return {
    deliveryLog: engine.deliveryLog,
    // The panel's "why" asks the directory at most once per question, from the lookup reserve.
    explain: (query) =>
      explainItem(query, {
        ...whyDesk(parts),
        client,
        clock,
        links: directoryLinks(config.directory.baseUrl, EMULATOR_WEB_URL),
      }),
    held: async (platform, channelId) =>
      heldSummaries(
        store.keyv,
        parts.directoryId,
        (await engine.subscriptions.index()).forChannel(platform, channelId),
        async (s) => (await zones.resolver.resolve(s)).zone,
        clock.now(),
      ),
  };
}

/**
 * The panel's count of messages waiting to be posted. With delivery workers (Redis) the queue in
 * use is theirs: every process shares it, so any instance counts it, plus what the polling
 * instance's outbox holds before its hand-off. Without workers, only the poller's outbox queues,
 * and another instance cannot see it (undefined).
 */
export function panelQueueDepth(
  engine: Pick<Engine, 'leader' | 'outbox'> & {
    handOff?: { queue: Pick<DeliveryQueue, 'size'> } | undefined;
  },
): () => Promise<number | undefined> {
  return async () => {
    const outbox = engine.leader.isLeader ? engine.outbox.size() : undefined;
    if (engine.handOff === undefined) return outbox;
    return (await engine.handOff.queue.size()) + (outbox ?? 0);
  };
}

/**
 * The panel's sign-in limit counts in the Redis at `redisUrl`, under
 * `<namespace>:panel:signin-limit:<address>` (rate-limit-redis), so every web process counts
 * together; each count expires with its window. `close` ends the connection, which would otherwise
 * keep the process alive. The URL is never logged: it may hold a password.
 */
export function openSignInLimitStore(redisUrl: string, namespace: string): { store: Store; close(): void } {
  const redis = openRedis(redisUrl);
  return {
    store: new RedisStore({
      sendCommand: (command: string, ...args: string[]) =>
        redis.call(command, ...args) as Promise<string | number>,
      prefix: `${namespace}:${SIGN_IN_LIMIT_KEYS}`,
    }),
    close: () => redis.disconnect(),
  };
}

/** The panel, and what to close when the app stops (the sign-in limit's Redis connection). */
export interface BuiltPanel extends Panel {
  close(): void;
}

/**
 * The control panel for this configuration, or undefined when it has no way to sign anyone in
 * (live, without PANEL_URL). In the sandbox the person at the machine signs in locally, with a
 * session secret made for this run.
 */
export function buildPanel(
  config: Config,
  parts: Required<Pick<CommandParts, 'history' | 'zones'>> & CommandParts,
  commands: CommandHandler,
  adapters: readonly ChatAdapter[],
  logger: Logger,
): BuiltPanel | undefined {
  const sandbox = isSandbox(config);
  if (!sandbox && config.panel.url === undefined) return undefined;
  const { engine, client, zones, store } = parts;
  // On Redis every web process counts sign-ins together; elsewhere each counts in its own memory
  // (one web process is the normal shape on SQLite and PostgreSQL).
  const signInLimit =
    store.kind === 'redis'
      ? openSignInLimitStore(config.store.url, storeNamespace(config).namespace ?? 'directory-bot')
      : undefined;
  const access = new Map<string, WorkspaceAccess>();
  for (const adapter of adapters) if (adapter.access) access.set(adapter.platform, adapter.access);

  const previews = new Map<string, { at: number; message: Promise<Message | undefined> }>();
  const clockDeps = {
    clock: systemClock,
    zones: { channelZones: zones.channelZones, resolve: zones.resolver.resolve },
  };

  const panel = createPanel({
    commands,
    subscriptions: engine.subscriptions,
    history: parts.history,
    status: () => statusReport(parts),
    queueDepth: panelQueueDepth(engine),
    describe: async (s) =>
      describeSubscription(s, config.feeds.liveRemindMinutes, await scheduleClock(clockDeps, s)),
    describePause: (s) => (s.paused ? describePause(s.paused, systemClock.now()) : ''),
    preview: async (feed, filters, format) => {
      const key = JSON.stringify([feed, filters]);
      const now = systemClock.now();
      let cached = previews.get(key);
      if (cached === undefined || now - cached.at > PREVIEW_CACHE_MS) {
        for (const [k, v] of previews) if (now - v.at > PREVIEW_CACHE_MS) previews.delete(k);
        cached = { at: now, message: previewSubscription(client, feed, filters, now) };
        // A failed lookup is not kept: the next view asks again.
        cached.message.catch(() => previews.delete(key));
        previews.set(key, cached);
      }
      const message = await cached.message;
      return message && formatMessage(message, format);
    },
    renderers: { slack: MESSAGE_RENDERERS.slack, discord: MESSAGE_RENDERERS.discord },
    announce: panelAnnouncer(engine, logger),
    access,
    ...panelAccounting(config, parts, systemClock),
    // Over this store: a webhook added here is sealed like one added with `directory-bot webhook`.
    webhooks: openWebhookAdmin(config, logger, store),
    adminUserIds: config.feeds.adminUserIds,
    operatorIds: config.panel.operatorIds,
    providers: signInProviders(config),
    localSignIn: sandbox,
    sessions: store.keyv,
    // The sandbox's sessions last one run: its secret is made at start and never leaves the process.
    sessionSecrets: sandbox ? [randomBytes(32).toString('hex')] : config.panel.sessionSecrets,
    clock: systemClock,
    logger: logger.child({ component: 'panel' }),
    trustProxy: config.server.onHeroku ? 1 : 'loopback',
    ...(signInLimit === undefined ? {} : { signInLimitStore: signInLimit.store }),
  });
  return { ...panel, close: () => signInLimit?.close() };
}

/**
 * How a change made in the panel is announced in its channel. The poller queues it in its outbox
 * like any message. Another instance may not write that outbox (it would race the poller), but
 * with delivery workers (Redis) it can queue the announcement for them directly; without them it
 * is logged instead, since only the poller delivers. Exported for its test.
 */
export function panelAnnouncer(
  engine: { leader: Pick<Engine['leader'], 'isLeader'> } & Pick<Engine, 'outbox' | 'handOff'>,
  logger: Logger,
  clock: Clock = systemClock,
): PanelOptions['announce'] {
  return async (where, message) => {
    const now = clock.now();
    const entry: OutboxEntry = {
      destination: {
        platform: where.platform,
        channelId: where.channelId,
        ...(where.workspaceId === undefined ? {} : { workspaceId: where.workspaceId }),
      },
      destinationKey: destinationKey(where.platform, where.channelId),
      itemKey: `panel-change:${randomUUID()}`,
      message,
      subscriptionIds: [],
      enqueuedAt: now,
      attempts: 0,
      notBefore: now,
    };
    if (engine.leader.isLeader) await engine.outbox.enqueue([entry]);
    else if (engine.handOff !== undefined) await engine.handOff.queueNow([entry]);
    else
      logger.info(
        { platform: where.platform, channelId: where.channelId },
        'panel change not announced: this instance does not deliver',
      );
  };
}
