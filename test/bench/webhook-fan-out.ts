import { join } from 'node:path';
import { Agent } from 'undici';
import { DISCORD_WEBHOOK } from '../../adapters/discord/webhook.js';
import { createWebhookAdapter, TEAMS_WEBHOOK } from '../../adapters/webhooks/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine, type EngineEvent } from '../../src/engine/engine.js';
import { createStore } from '../../src/store/create-store.js';
import { FakeDiscordWebhooks } from '../fakes/webhooks/fake-discord-webhooks.js';
import { FakeTeamsWorkflows, TEAMS_FAKE_LIMITS } from '../fakes/webhooks/fake-teams-workflows.js';
import { makeTempDir } from '../support/temp-dir.js';
import { WebhookBook } from '../support/webhook-world.js';
import { type FanOutCeiling, fanOutCeiling, type PostingLimit } from './ceiling.js';
import { benchEngineParts, round, silentLogger, type Violation, waitFor } from './support.js';

export interface WebhookFanOutOptions {
  /** Webhooks per platform (the issue: 500 each; quick mode 50). */
  webhooks: number;
  /** New items each webhook receives in the burst. */
  itemsPerWebhook: number;
  /** The bot's store (default: a SQLite file in a temp folder; see FanOutOptions.storeUrl). */
  storeUrl?: string;
}

export interface WebhookPlatformFanOut {
  webhooks: number;
  itemsPerWebhook: number;
  messages: number;
  delivered: number;
  spanMs: number;
  messagesPerSecond: number;
  ceiling: FanOutCeiling;
  /** Achieved ÷ ceiling; 1 = as fast as the documented limits allow. */
  ratio: number;
  /** Attempts the outbox retried (a 429 or anything else): 0 when the pacing kept every limit. */
  retried: number;
  /** 429s the fake answered. */
  status429: number;
  /** Webhooks that show an item more than once. */
  postedTwice: number;
  /** Mean ms of one delivery (the request's round trip and recording it), what each window waits on top. */
  meanDeliveryMs: number;
  /**
   * The best rate a limiter that never lets a window hold more than the limit (it counts each
   * request until a window after its answer) reaches with that mean: messages ÷ (windows × (window
   * + mean)); achieved ÷ it shows what is left to the outbox itself (see fan-out.ts).
   */
  safeMessagesPerSecond: number;
}

export interface WebhookFanOutResult {
  discord: WebhookPlatformFanOut;
  teams: WebhookPlatformFanOut;
  enqueueMs: number;
  violations: Violation[];
}

/**
 * The ceilings, from the documented limits (docs/webhooks.md) and what the fakes enforce:
 * - Discord: 50 requests a second from one IP across all webhooks (Discord's global limit, "applied
 *   to the IP address" without a bot token), counted in fixed one-second windows; each webhook's
 *   own bucket as the fake states it in its headers, 5 per 2 s.
 * - Teams: 50 requests a second per app per tenant (the Workflows bot posts every webhook's card),
 *   all 500 webhooks in one tenant; per webhook 4 a second (and 60 in 30 s), fixed windows.
 */
const DISCORD_GLOBAL: PostingLimit = { kind: 'window', limit: 50, windowMs: 1_000 };
const DISCORD_PER_WEBHOOK: PostingLimit = { kind: 'window', limit: 5, windowMs: 2_000 };
const TEAMS_GLOBAL: PostingLimit = { kind: 'window', ...TEAMS_FAKE_LIMITS.perTenant };
const TEAMS_PER_WEBHOOK: PostingLimit = { kind: 'window', ...TEAMS_FAKE_LIMITS.perWebhook[0] };

/**
 * A burst of new comments routed to `webhooks` Discord webhooks and `webhooks` Teams Workflows
 * webhooks through the real engine and the real webhook adapters, against fakes that enforce the
 * documented limits, at the same time through one dispatcher (as the channel fan-out runs Slack
 * and Discord).
 */
export async function benchWebhookFanOut(options: WebhookFanOutOptions): Promise<WebhookFanOutResult> {
  const temp = makeTempDir('directory-bot-bench-webhooks-');
  const logger = silentLogger();
  const emulator = await startEmulator({ seed: 7 });
  const discord = await new FakeDiscordWebhooks().listen();
  const teams = await new FakeTeamsWorkflows().listen();
  const book = new WebhookBook();
  const discordHooks: string[] = [];
  const teamsHooks: string[] = [];
  for (let i = 0; i < options.webhooks; i += 1) {
    const d = discord.addWebhook();
    discordHooks.push(d.id);
    book.add('discord-webhook', { name: `d${i}`, url: d.url });
    const t = teams.addWebhook();
    teamsHooks.push(t.id);
    book.add('teams-webhook', { name: `t${i}`, url: t.url });
  }
  // The dispatcher's 16 deliveries in flight per platform, each on a connection of its own.
  const pool = () => new Agent({ connections: 32, keepAliveTimeout: 30_000 });
  const adapters = [DISCORD_WEBHOOK, TEAMS_WEBHOOK].map((kind) =>
    createWebhookAdapter(kind, {
      webhooks: book,
      logger,
      userAgent: 'directory-bot-bench',
      dispatcher: pool(),
    }),
  );
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  const store = createStore({
    url: options.storeUrl ?? `sqlite://${join(temp.path, 'webhooks.sqlite')}`,
    namespace: 'bench',
  });
  const events: (EngineEvent & { at: number })[] = [];
  const engine = createEngine({
    store,
    client,
    adapters,
    ...benchEngineParts(emulator.url),
    settings: {
      pollMinIntervalMs: 1000,
      dedupeTtlMs: 86_400_000,
      reserveFraction: 0.2,
      defaultRemindMinutes: 15,
      clearNotifications: false,
      windowMs: 900_000,
    },
    onEvent: (event) => events.push({ ...event, at: Date.now() }),
  });
  try {
    for (const adapter of adapters) await adapter.start({} as never);
    const seeds = [];
    for (let i = 0; i < options.webhooks; i += 1) {
      seeds.push({ platform: 'discord-webhook', channelId: `d${i}`, feed: 'comments' as const, filters: {} });
      seeds.push({ platform: 'teams-webhook', channelId: `t${i}`, feed: 'comments' as const, filters: {} });
    }
    await engine.subscriptions.seed(seeds);
    await engine.pollAllOnce(); // seeds the comments cursor: no history flood
    for (let i = 0; i < options.itemsPerWebhook; i += 1)
      emulator.admin.addComment({ body: `webhook fan-out ${i}` });
    const enqueueStarted = Date.now();
    await engine.pollAllOnce();
    const startedAt = Date.now();
    const expected = 2 * options.webhooks * options.itemsPerWebhook;
    if (engine.outbox.size() !== expected) {
      throw new Error(`the burst queued ${engine.outbox.size()} deliveries, expected ${expected}`);
    }
    engine.dispatcher.start();
    const ceilings = {
      'discord-webhook': fanOutCeiling({
        channels: options.webhooks,
        perChannel: options.itemsPerWebhook,
        perChannelLimit: DISCORD_PER_WEBHOOK,
        globalLimit: DISCORD_GLOBAL,
      }),
      'teams-webhook': fanOutCeiling({
        channels: options.webhooks,
        perChannel: options.itemsPerWebhook,
        perChannelLimit: TEAMS_PER_WEBHOOK,
        globalLimit: TEAMS_GLOBAL,
      }),
    };
    const patience = 3 * Math.max(...Object.values(ceilings).map((c) => c.minimumSpanMs)) + 30_000;
    await waitFor(() => engine.outbox.size() === 0, patience, 50);
    await engine.dispatcher.stop();

    const violations: Violation[] = [];
    if (engine.outbox.size() > 0) {
      violations.push({
        benchmark: 'webhook fan-out',
        problem: `${engine.outbox.size()} deliveries still queued`,
      });
    }
    for (const event of events) {
      if (event.source === 'dispatcher' && (event.type === 'abandoned' || event.type === 'rejected')) {
        violations.push({
          benchmark: 'webhook fan-out',
          problem: `${event.type}: ${event.entry.destinationKey}`,
        });
      }
    }
    const perWebhook = (counts: Map<string, number>, hooks: string[], platform: string) => {
      let twice = 0;
      for (const hook of hooks) {
        const got = counts.get(hook) ?? 0;
        if (got > options.itemsPerWebhook) twice += 1;
        if (got !== options.itemsPerWebhook) {
          violations.push({
            benchmark: 'webhook fan-out',
            problem: `${platform} webhook ${hook} shows ${got}, expected ${options.itemsPerWebhook}`,
          });
        }
      }
      return twice;
    };
    const discordCounts = new Map<string, number>();
    for (const message of discord.messages.values()) {
      const hook = String(message.body['webhook_id']);
      discordCounts.set(hook, (discordCounts.get(hook) ?? 0) + 1);
    }
    const teamsCounts = new Map<string, number>();
    for (const post of teams.posts) teamsCounts.set(post.flow, (teamsCounts.get(post.flow) ?? 0) + 1);

    const summarise = (
      platform: 'discord-webhook' | 'teams-webhook',
      status429: number,
      postedTwice: number,
    ): WebhookPlatformFanOut => {
      const mine = events.filter(
        (e) => e.source === 'dispatcher' && 'entry' in e && e.entry.destination.platform === platform,
      );
      const delivered = mine.filter((e) => e.type === 'delivered');
      const spanMs = Math.max(startedAt, ...delivered.map((e) => e.at)) - startedAt;
      const messagesPerSecond = delivered.length / (spanMs / 1000);
      const ceiling = ceilings[platform];
      const meanDeliveryMs =
        delivered.reduce((sum, e) => sum + ('ms' in e && typeof e.ms === 'number' ? e.ms : 0), 0) /
        Math.max(1, delivered.length);
      const windows = Math.floor((ceiling.messages - 1) / 50);
      const safeMessagesPerSecond = ceiling.messages / ((windows * (1000 + meanDeliveryMs)) / 1000);
      return {
        webhooks: options.webhooks,
        itemsPerWebhook: options.itemsPerWebhook,
        messages: ceiling.messages,
        delivered: delivered.length,
        spanMs,
        messagesPerSecond: round(messagesPerSecond, 2),
        ceiling: { ...ceiling, messagesPerSecond: round(ceiling.messagesPerSecond, 2) },
        ratio: round(messagesPerSecond / ceiling.messagesPerSecond),
        retried: mine.filter((e) => e.type === 'failed').length,
        status429,
        postedTwice,
        meanDeliveryMs: round(meanDeliveryMs, 1),
        safeMessagesPerSecond: round(safeMessagesPerSecond, 2),
      };
    };
    const result = {
      discord: summarise(
        'discord-webhook',
        discord.calls.filter((c) => c.status === 429).length,
        perWebhook(discordCounts, discordHooks, 'Discord'),
      ),
      teams: summarise(
        'teams-webhook',
        teams.calls.filter((c) => c.status === 429).length,
        perWebhook(teamsCounts, teamsHooks, 'Teams'),
      ),
      enqueueMs: startedAt - enqueueStarted,
      violations,
    };
    // Going over a limit shows as a 429 and a retry, in the figures; anything else the fakes saw
    // (a body outside the schema) is broken.
    const broken = [...discord.problems, ...teams.problems].filter((p) => !/exceeded| over \d+ per /.test(p));
    for (const problem of broken.slice(0, 5)) {
      violations.push({ benchmark: 'webhook fan-out', problem: `the fake saw: ${problem}` });
    }
    return result;
  } finally {
    await engine.dispatcher.stop();
    for (const adapter of adapters) await adapter.stop();
    await client.close();
    await store.close();
    await discord.close();
    await teams.close();
    await emulator.close();
    temp.cleanup();
  }
}
