import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter, SLACK_PACING } from '../../adapters/slack/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine, type EngineEvent } from '../../src/engine/engine.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import type { ChatAdapter, DeliveryPacing, RateLimit } from '../../src/ports/index.js';
import { createStore } from '../../src/store/create-store.js';
import type { SubscriptionSeed } from '../../src/subscriptions/subscription-spec.js';
import { REQUEST_SCHEMAS, validateAgainstSpec } from '../fakes/discord/discord-spec.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { makeTempDir } from '../support/temp-dir.js';
import { type FanOutCeiling, fanOutCeiling, type PostingLimit } from './ceiling.js';
import { createBenchCommandHandler } from './command-handler.js';
import { DeliveryTimeline, type DeliveryTiming } from './delivery-timeline.js';
import { benchEngineParts, percentile, round, silentLogger, type Violation, waitFor } from './support.js';

export interface FanOutOptions {
  /** Destinations per platform (the issue: 500 each; quick mode 50). */
  channels: number;
  /** New items each Slack channel receives in the burst. */
  slackItems: number;
  /** New items each Discord channel receives in the burst. */
  discordItems: number;
  /**
   * The bot's store (default: a SQLite file in a temp folder). A file on tmpfs
   * (`sqlite:///dev/shm/…`) separates the pacing from the store's write latency (each delivery
   * writes twice).
   */
  storeUrl?: string;
  /** Replaces the adapters' own pacing, to try another one against the same limits (`--discord-pacing`). */
  pacing?: { slack?: DeliveryPacing; discord?: DeliveryPacing };
  /**
   * Threads on: every channel first receives one post (not measured), and the burst is comments
   * on it, each posted in the post's thread (Slack `thread_ts`; Discord a thread started from the
   * post's message, one per channel, then posts into it). Off: the burst goes top-level.
   */
  threads?: boolean;
}

export interface PlatformFanOut {
  channels: number;
  itemsPerChannel: number;
  messages: number;
  delivered: number;
  spanMs: number;
  messagesPerSecond: number;
  ceiling: FanOutCeiling;
  /** Achieved ÷ ceiling; 1 = as fast as the published limits allow. */
  ratio: number;
  /** 429s the fake platform answered. */
  status429: number;
  /** Attempts the outbox had to retry (429s, and rate limits the SDK refused to send into). */
  retried: number;
  /** Why they were retried: the outcome's code and reason, counted. */
  retriedBy: Record<string, number>;
  /** 429s by `X-RateLimit-Scope` (`global`, `user` for a route's bucket). */
  status429By: Record<string, number>;
  /** Requests discord.js held back because its own bucket (learned from the headers) was empty, by kind. */
  sdkHeldBack: Record<string, number>;
  /**
   * Where the pacing is a window (Discord's global 50 per second): how long each post took from
   * the outbox handing it to the adapter to the answer, and the best rate a limiter can reach
   * that never lets a window hold more than the limit wherever a request lands inside its round
   * trip: every window then also holds its slots for the round trip (src/delivery/dispatch/window-limiter.ts).
   */
  window?: {
    roundTripMs: { p50: number; mean: number; p95: number };
    /** messages ÷ (windows × (window + mean round trip)), per second. */
    safeMessagesPerSecond: number;
    /** Achieved ÷ that rate: what is left after the round trip, i.e. the outbox's own slack. */
    ratioToSafe: number;
  };
  /** Where the time went (event-loop delay, slot free → send, per-post phases, store writes): delivery-timeline.ts. */
  timing?: DeliveryTiming;
}

export interface FanOutResult {
  /** Whether the burst was threaded under a post (see `FanOutOptions.threads`). */
  threads: boolean;
  slack: PlatformFanOut;
  discord: PlatformFanOut;
  /** Time to route the burst to every subscription and queue it durably, ms. */
  enqueueMs: number;
  violations: Violation[];
}

export const SLACK_TOKEN = 'xoxb-bench';
export const DISCORD_TOKEN = 'bench-discord-token';
/** FakeSlackApi's default: one message per second per channel, no burst beyond one. */
export const SLACK_PER_CHANNEL: PostingLimit = { kind: 'bucket', ratePerSecond: 1, burst: 1 };
/**
 * Slack publishes its workspace limit only as "several hundred messages per minute"; the adapter
 * paces each workspace to 240 per minute (burst 20), and with the bench's one workspace (a
 * single-workspace install) that is the ceiling a Slack burst can reach.
 */
const SLACK_WORKSPACE = workspacePace();
export const SLACK_GLOBAL: PostingLimit = { kind: 'bucket', ...SLACK_WORKSPACE };

function workspacePace(): RateLimit {
  if (SLACK_PACING.perWorkspace === undefined)
    throw new Error('the Slack adapter declares no workspace pace');
  return SLACK_PACING.perWorkspace;
}
/** Discord: 5 messages per 5 s per channel, 50 requests per second per bot (FakeDiscordRest's defaults). */
export const DISCORD_PER_CHANNEL: PostingLimit = { kind: 'window', limit: 5, windowMs: 5000 };
const DISCORD_WINDOW = { limit: 50, windowMs: 1000 };
export const DISCORD_GLOBAL: PostingLimit = { kind: 'window', ...DISCORD_WINDOW };

export const slackChannel = (i: number) => `C${String(1_000_000 + i)}`;
export const discordChannel = (i: number) => String(300_000_000_000_000_000n + BigInt(i));

/**
 * What the platforms allow this fan-out at best (ceiling.ts), and how long to wait for it: three
 * times the slower platform's shortest possible span, plus 30 s.
 */
export function fanOutCeilings(options: Pick<FanOutOptions, 'channels' | 'slackItems' | 'discordItems'>): {
  slackCeiling: FanOutCeiling;
  discordCeiling: FanOutCeiling;
  patience: number;
} {
  const slackCeiling = fanOutCeiling({
    channels: options.channels,
    perChannel: options.slackItems,
    perChannelLimit: SLACK_PER_CHANNEL,
    globalLimit: SLACK_GLOBAL,
  });
  const discordCeiling = fanOutCeiling({
    channels: options.channels,
    perChannel: options.discordItems,
    perChannelLimit: DISCORD_PER_CHANNEL,
    globalLimit: DISCORD_GLOBAL,
  });
  const patience = 3 * Math.max(slackCeiling.minimumSpanMs, discordCeiling.minimumSpanMs) + 30_000;
  return { slackCeiling, discordCeiling, patience };
}

/**
 * A burst of new comments routed to `channels` Slack and `channels` Discord destinations through
 * the real engine and both real adapters, against fakes that enforce the published limits.
 * Keyword filters give each platform its own share of the burst, so Slack (whose workspace
 * pacing binds at once) and Discord (which needs several messages per channel before its limits
 * bind) both run long enough to be measured, at the same time, through one dispatcher.
 */
export async function benchFanOut(options: FanOutOptions): Promise<FanOutResult> {
  const temp = makeTempDir('directory-bot-bench-');
  const logger = silentLogger();
  const emulator = await startEmulator({ seed: 7 });
  const slack = await new FakeSlackApi().start();
  slack.addToken(SLACK_TOKEN, 'T1');
  const discord = new FakeDiscordRest({ token: DISCORD_TOKEN });
  await discord.listen();
  // The fake checks every post against Discord's OpenAPI schema and compiles that check on the
  // first post (a quarter to a whole second): the test bed's cost, so paid before the clock starts.
  validateAgainstSpec(REQUEST_SCHEMAS.createMessage, {});
  for (let i = 0; i < options.channels; i += 1) {
    slack.addChannel(slackChannel(i));
    discord.addChannel(discordChannel(i));
  }
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  const store = createStore({
    url: options.storeUrl ?? `sqlite://${join(temp.path, 'fan-out.sqlite')}`,
    namespace: 'bench',
  });
  const slackAdapter = withPacing(
    createSlackAdapter({
      botToken: SLACK_TOKEN,
      signingSecret: 'bench-signing-secret',
      apiUrl: slack.apiUrl,
      logger,
    }),
    options.pacing?.slack,
  );
  const sdkHeldBack: Record<string, number> = {};
  const timeline = new DeliveryTimeline();
  timeline.watchStore(store.keyv);
  const discordAdapter = timeline.watch(
    withPacing(
      createDiscordAdapter({
        token: DISCORD_TOKEN,
        applicationId: '100000000000000001',
        apiUrl: discord.url,
        gateway: false,
        logger,
        onEvent: (event) => {
          if (event.type === 'rateLimited') count(sdkHeldBack, event.global ? 'global' : 'route');
        },
      }),
      options.pacing?.discord,
    ),
  );
  const events: (EngineEvent & { at: number })[] = [];
  const parts = benchEngineParts(emulator.url);
  const { directoryId } = parts;
  const engine = createEngine({
    store,
    client,
    adapters: [slackAdapter, discordAdapter],
    ...parts,
    settings: {
      pollMinIntervalMs: 1000,
      dedupeTtlMs: 86_400_000,
      reserveFraction: 0.2,
      defaultRemindMinutes: 15,
      clearNotifications: false,
      windowMs: 900_000,
    },
    onEvent: (event) => {
      events.push({ ...event, at: Date.now() });
      if (event.source === 'dispatcher' && event.type === 'delivered') {
        timeline.recorded(`${event.entry.destinationKey}|${event.entry.itemKey}`);
      }
    },
  });
  const http = createHttpServer({ logger, registry: new Registry() });
  const context = {
    http,
    commands: createBenchCommandHandler({ client, engine, store, directoryId }),
    logger,
  };
  try {
    await slackAdapter.start(context);
    await discordAdapter.start(context);
    const seeds: SubscriptionSeed[] = [];
    for (let i = 0; i < options.channels; i += 1) {
      seeds.push({
        platform: 'slack',
        channelId: slackChannel(i),
        feed: 'comments',
        filters: { keywords: ['toslack'] },
      });
      seeds.push({
        platform: 'discord',
        channelId: discordChannel(i),
        feed: 'comments',
        filters: { keywords: ['todiscord'] },
      });
    }
    if (options.threads === true) {
      for (let i = 0; i < options.channels; i += 1) {
        seeds.push({ platform: 'slack', channelId: slackChannel(i), feed: 'posts', filters: {} });
        seeds.push({ platform: 'discord', channelId: discordChannel(i), feed: 'posts', filters: {} });
      }
    }
    await engine.subscriptions.seed(seeds);
    await engine.pollAllOnce(); // seeds the comments cursor: no history flood

    let postId: number | undefined;
    if (options.threads === true) {
      // The parent every channel receives before the burst; its delivery is not measured.
      postId = Number(emulator.admin.addPost({ name: 'Fan-out thread parent' }).id);
      await engine.pollAllOnce();
      engine.dispatcher.start();
      await waitFor(() => engine.outbox.size() === 0, 120_000, 50);
      await engine.dispatcher.stop();
      // The posts spent the Slack workspace burst and Discord's channel buckets; the ceiling
      // assumes full ones, so let them refill before the measured burst.
      await new Promise((resolve) => setTimeout(resolve, refillMs()));
    }
    const onPost = postId === undefined ? {} : { postId };
    for (let i = 0; i < options.slackItems; i += 1)
      emulator.admin.addComment({ body: `fan-out ${i} toslack`, ...onPost });
    for (let i = 0; i < options.discordItems; i += 1) {
      emulator.admin.addComment({ body: `fan-out ${i} todiscord`, ...onPost });
    }
    const enqueueStarted = Date.now();
    await engine.pollAllOnce();
    const startedAt = Date.now();
    const enqueueMs = startedAt - enqueueStarted;
    const expected = options.channels * (options.slackItems + options.discordItems);
    if (engine.outbox.size() !== expected) {
      throw new Error(`the burst queued ${engine.outbox.size()} deliveries, expected ${expected}`);
    }
    timeline.start();
    engine.dispatcher.start();

    const { slackCeiling, discordCeiling, patience } = fanOutCeilings(options);
    await waitFor(() => engine.outbox.size() === 0, patience, 50);
    await engine.dispatcher.stop();
    timeline.stop();

    const violations: Violation[] = [];
    if (engine.outbox.size() > 0) {
      violations.push({
        benchmark: 'fan-out',
        problem: `${engine.outbox.size()} deliveries still queued after ${Math.round(patience / 1000)} s`,
      });
    }
    for (const event of events) {
      if (event.source === 'dispatcher' && (event.type === 'abandoned' || event.type === 'rejected')) {
        violations.push({ benchmark: 'fan-out', problem: `${event.type}: ${event.entry.destinationKey}` });
      }
    }
    const slackPosted = new Map<string, number>();
    for (const call of slack.callsTo('chat.postMessage')) {
      if (call.response['ok'] !== true) continue;
      // Threads on: only replies count, so a comment that went top-level is a violation.
      if (options.threads === true && call.params['thread_ts'] === undefined) continue;
      const channel = String(call.params['channel']);
      slackPosted.set(channel, (slackPosted.get(channel) ?? 0) + 1);
    }
    for (let i = 0; i < options.channels; i += 1) {
      const slackCount = slackPosted.get(slackChannel(i)) ?? 0;
      if (slackCount !== options.slackItems) {
        violations.push({
          benchmark: 'fan-out',
          problem: `Slack ${slackChannel(i)} got ${slackCount} messages, expected ${options.slackItems}`,
        });
      }
      const discordCount = discordDelivered(discord, discordChannel(i), options.threads === true, violations);
      if (discordCount !== options.discordItems) {
        violations.push({
          benchmark: 'fan-out',
          problem: `Discord ${discordChannel(i)} got ${discordCount} messages, expected ${options.discordItems}`,
        });
      }
    }

    const summarise = (
      platform: 'slack' | 'discord',
      itemsPerChannel: number,
      ceiling: FanOutCeiling,
      status429: number,
      status429By: Record<string, number>,
      held: Record<string, number>,
      window?: { limit: PostingLimit; roundTrips: readonly number[]; timing: DeliveryTiming },
    ): PlatformFanOut => {
      const mine = events.filter(
        (e) =>
          e.source === 'dispatcher' &&
          'entry' in e &&
          e.entry.destination.platform === platform &&
          e.at >= startedAt,
      );
      const delivered = mine.filter((e) => e.type === 'delivered');
      const lastAt = Math.max(startedAt, ...delivered.map((e) => e.at));
      const spanMs = lastAt - startedAt;
      const messagesPerSecond = delivered.length / (spanMs / 1000);
      const retriedBy: Record<string, number> = {};
      for (const e of mine) if (e.type === 'failed') count(retriedBy, `${e.code}: ${e.reason}`);
      return {
        channels: options.channels,
        itemsPerChannel,
        messages: ceiling.messages,
        delivered: delivered.length,
        spanMs,
        messagesPerSecond: round(messagesPerSecond, 2),
        ceiling: { ...ceiling, messagesPerSecond: round(ceiling.messagesPerSecond, 2) },
        ratio: round(messagesPerSecond / ceiling.messagesPerSecond),
        status429,
        retried: mine.filter((e) => e.type === 'failed').length,
        retriedBy,
        status429By,
        sdkHeldBack: held,
        ...(window === undefined
          ? {}
          : { window: safeWindowRate(window, ceiling, messagesPerSecond), timing: window.timing }),
      };
    };
    return {
      threads: options.threads === true,
      slack: summarise(
        'slack',
        options.slackItems,
        slackCeiling,
        slack.calls.filter((c) => c.status === 429).length,
        {},
        {},
      ),
      discord: summarise(
        'discord',
        options.discordItems,
        discordCeiling,
        discord.calls.filter((c) => c.status === 429).length,
        countBy(discord.calls.filter((c) => c.status === 429).map((c) => c.rateLimitScope ?? '?')),
        sdkHeldBack,
        {
          limit: DISCORD_GLOBAL,
          roundTrips: timeline.roundTrips(),
          timing: timeline.summarise(DISCORD_WINDOW),
        },
      ),
      enqueueMs,
      violations,
    };
  } finally {
    await engine.dispatcher.stop();
    await slackAdapter.stop();
    await discordAdapter.stop();
    await client.close();
    await store.close();
    await slack.close();
    await discord.close();
    await emulator.close();
    temp.cleanup();
  }
}

/** How long until the Slack workspace burst and a Discord channel's bucket are full again. */
function refillMs(): number {
  const slackMs = (SLACK_WORKSPACE.burst / SLACK_WORKSPACE.ratePerSecond) * 1000;
  return Math.max(slackMs, DISCORD_PER_CHANNEL.kind === 'window' ? DISCORD_PER_CHANNEL.windowMs : 0) + 100;
}

/**
 * The burst's messages one Discord channel shows: top-level with threads off; with threads on,
 * those in the one thread started from the channel's only top-level message (the post). A second
 * thread, or a comment outside the thread, is a violation.
 */
function discordDelivered(
  discord: FakeDiscordRest,
  channelId: string,
  threads: boolean,
  violations: Violation[],
): number {
  const top = discord.messages.get(channelId) ?? [];
  if (!threads) return top.length;
  const started = discord.threads.of(channelId);
  if (top.length !== 1 || started.length !== 1) {
    violations.push({
      benchmark: 'fan-out',
      problem: `Discord ${channelId} shows ${top.length} top-level messages and ${started.length} threads, expected 1 and 1`,
    });
  }
  return started[0] === undefined ? 0 : (discord.messages.get(started[0].id)?.length ?? 0);
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function countBy(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) count(counts, key);
  return counts;
}

/** The adapter as is, or with its pacing replaced (everything else delegated). */
function withPacing(adapter: ChatAdapter, pacing: DeliveryPacing | undefined): ChatAdapter {
  if (!pacing) return adapter;
  return {
    platform: adapter.platform,
    pacing,
    start: (context) => adapter.start(context),
    deliver: (destination, message, options) => adapter.deliver(destination, message, options),
    health: () => adapter.health(),
    stop: () => adapter.stop(),
  };
}

/**
 * The best rate a window limiter reaches when it counts each request until a window after its
 * answer (so no window can exceed the limit wherever the platform counts it): each of the
 * `messages ÷ limit` windows lasts the window plus a round trip.
 */
function safeWindowRate(
  window: { limit: PostingLimit; roundTrips: readonly number[] },
  ceiling: FanOutCeiling,
  messagesPerSecond: number,
): NonNullable<PlatformFanOut['window']> {
  const { limit, roundTrips } = window;
  const mean = roundTrips.reduce((sum, ms) => sum + ms, 0) / Math.max(1, roundTrips.length);
  const windows = limit.kind === 'window' ? Math.floor((ceiling.messages - 1) / limit.limit) : 0;
  const windowMs = limit.kind === 'window' ? limit.windowMs : 0;
  const safeSpanMs = windows * (windowMs + mean);
  const safeMessagesPerSecond =
    safeSpanMs > 0 ? ceiling.messages / (safeSpanMs / 1000) : Number.POSITIVE_INFINITY;
  return {
    roundTripMs: {
      p50: round(percentile(roundTrips, 50), 1),
      mean: round(mean, 1),
      p95: round(percentile(roundTrips, 95), 1),
    },
    safeMessagesPerSecond: round(safeMessagesPerSecond, 2),
    ratioToSafe: round(messagesPerSecond / safeMessagesPerSecond),
  };
}
