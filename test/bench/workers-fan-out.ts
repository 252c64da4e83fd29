import { Redis } from 'ioredis';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { workerNames } from '../../src/delivery/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { createStore } from '../../src/store/create-store.js';
import type { SubscriptionSeed } from '../../src/subscriptions/subscription-spec.js';
import { REQUEST_SCHEMAS, validateAgainstSpec } from '../fakes/discord/discord-spec.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import type { ChildBot } from '../support/child-bot.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import type { FanOutCeiling } from './ceiling.js';
import {
  DISCORD_TOKEN,
  discordChannel,
  type FanOutOptions,
  fanOutCeilings,
  type PlatformFanOut,
  SLACK_TOKEN,
  slackChannel,
} from './fan-out.js';
import { benchEngineParts, round, silentLogger, type Violation, waitFor } from './support.js';
import { redisStats, startWorkers, stopWorkers } from './worker-processes.js';

/** One platform's fan-out through the workers: the in-process fan-out's figures, less its outbox's. */
export type WorkersFanOutPlatform = Pick<
  PlatformFanOut,
  | 'messages'
  | 'delivered'
  | 'spanMs'
  | 'messagesPerSecond'
  | 'ceiling'
  | 'ratio'
  | 'status429'
  | 'status429By'
>;

export interface WorkersFanOutResult {
  workers: number;
  channels: number;
  slack: WorkersFanOutPlatform;
  discord: WorkersFanOutPlatform;
  /** Redis commands per delivered message over the burst, everything included (the shared pacer's waits too). */
  redisCommandsPerMessage: number;
  violations: Violation[];
}

/**
 * The fan-out burst of `benchFanOut` (the same channels, items, fakes and published limits),
 * delivered by `workers` real `directory-bot worker` processes with the adapters' own pacing,
 * shared in Redis (src/delivery/workers/shared-pacer.ts), instead of the in-process dispatcher.
 * The clock starts when the poller starts handing the burst over (the workers are ready and
 * idle), as the in-process run's starts with its dispatcher; achieved ÷ the same ceiling.
 */
export async function benchWorkersFanOut(
  redisUrl: string,
  options: Pick<FanOutOptions, 'channels' | 'slackItems' | 'discordItems'> & { workers: number },
): Promise<WorkersFanOutResult> {
  const admin = new Redis(redisUrl);
  await admin.flushall();
  const logger = silentLogger();
  const emulator = await startEmulator({ seed: 7 });
  const slack = await new FakeSlackApi().start();
  slack.addToken(SLACK_TOKEN, 'T1');
  const discord = new FakeDiscordRest({ token: DISCORD_TOKEN });
  await discord.listen();
  validateAgainstSpec(REQUEST_SCHEMAS.createMessage, {}); // the fake's one-off compile, before the clock
  const seeds: SubscriptionSeed[] = [];
  for (let i = 0; i < options.channels; i += 1) {
    slack.addChannel(slackChannel(i));
    discord.addChannel(discordChannel(i));
    seeds.push(
      { platform: 'slack', channelId: slackChannel(i), feed: 'comments', filters: { keywords: ['toslack'] } },
      {
        platform: 'discord',
        channelId: discordChannel(i),
        feed: 'comments',
        filters: { keywords: ['todiscord'] },
      },
    );
  }
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  const store = createStore({ url: redisUrl });
  // The poller's adapters only name the platforms routing may send to: the workers post.
  const adapters = [
    createSlackAdapter({ botToken: SLACK_TOKEN, signingSecret: 'bench', apiUrl: slack.apiUrl, logger }),
    createDiscordAdapter({
      token: DISCORD_TOKEN,
      applicationId: '100000000000000001',
      apiUrl: discord.url,
      gateway: false,
      logger,
    }),
  ];
  const parts = benchEngineParts(emulator.url);
  const engine = createEngine({
    store,
    client,
    adapters,
    ...parts,
    settings: TEST_SETTINGS,
    workers: { redisUrl, names: workerNames('directory-bot', parts.directoryId) },
  });
  let running: ChildBot[] = [];
  try {
    await engine.subscriptions.seed(seeds);
    running = await startWorkers(options.workers, {
      STORE_URL: redisUrl,
      DIRECTORY_BASE_URL: emulator.url,
      SLACK_BOT_TOKEN: SLACK_TOKEN,
      SLACK_SIGNING_SECRET: 'bench',
      SLACK_API_URL: slack.apiUrl,
      DISCORD_TOKEN,
      DISCORD_APPLICATION_ID: '100000000000000001',
      DISCORD_API_URL: discord.url,
      DISCORD_GATEWAY: 'false',
    });
    await engine.pollAllOnce(); // seeds the comments cursor: no history flood
    for (let i = 0; i < options.slackItems; i += 1)
      emulator.admin.addComment({ body: `fan-out ${i} toslack` });
    for (let i = 0; i < options.discordItems; i += 1)
      emulator.admin.addComment({ body: `fan-out ${i} todiscord` });
    await engine.pollAllOnce();
    const expected = options.channels * (options.slackItems + options.discordItems);
    if (engine.outbox.size() !== expected)
      throw new Error(`the burst queued ${engine.outbox.size()} deliveries, expected ${expected}`);

    const slackPosts = () =>
      slack.callsTo('chat.postMessage').filter((c) => c.response['ok'] === true && c.at >= startedAt);
    const discordPosts = () =>
      discord.callsTo('POST', '/channels/:id/messages').filter((c) => c.status === 200 && c.at >= startedAt);
    const { slackCeiling, discordCeiling, patience } = fanOutCeilings(options);
    const redisBefore = await redisStats(admin);
    const startedAt = Date.now();
    engine.dispatcher.start();
    await waitFor(() => slackPosts().length + discordPosts().length >= expected, patience, 50);
    const redisAfter = await redisStats(admin);
    await engine.dispatcher.stop();
    // A moment for anything that would arrive twice.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const violations: Violation[] = [];
    const perChannel = (posts: { channel: string }[], channel: string) =>
      posts.filter((p) => p.channel === channel).length;
    const slackByChannel = slackPosts().map((c) => ({ channel: String(c.params['channel']) }));
    for (let i = 0; i < options.channels; i += 1) {
      const s = perChannel(slackByChannel, slackChannel(i));
      if (s !== options.slackItems)
        violations.push({
          benchmark: 'workers',
          problem: `fan-out via workers: Slack ${slackChannel(i)} got ${s} messages, expected ${options.slackItems}`,
        });
      const d = discord.messages.get(discordChannel(i))?.length ?? 0;
      if (d !== options.discordItems)
        violations.push({
          benchmark: 'workers',
          problem: `fan-out via workers: Discord ${discordChannel(i)} got ${d} messages, expected ${options.discordItems}`,
        });
    }
    const summarise = (
      at: number[],
      ceiling: FanOutCeiling,
      status429: number,
      status429By: Record<string, number> = {},
    ): WorkersFanOutPlatform => {
      const spanMs = Math.max(1, Math.max(startedAt, ...at) - startedAt);
      const messagesPerSecond = at.length / (spanMs / 1000);
      return {
        messages: ceiling.messages,
        delivered: at.length,
        spanMs,
        messagesPerSecond: round(messagesPerSecond, 2),
        ceiling: { ...ceiling, messagesPerSecond: round(ceiling.messagesPerSecond, 2) },
        ratio: round(messagesPerSecond / ceiling.messagesPerSecond),
        status429,
        status429By,
      };
    };
    return {
      workers: options.workers,
      channels: options.channels,
      slack: summarise(
        slackPosts().map((c) => c.at),
        slackCeiling,
        slack.calls.filter((c) => c.status === 429).length,
      ),
      discord: summarise(
        discordPosts().map((c) => c.at),
        discordCeiling,
        discord.calls.filter((c) => c.status === 429).length,
        discord.calls
          .filter((c) => c.status === 429)
          .reduce<Record<string, number>>((by, c) => {
            const scope = c.rateLimitScope ?? '?';
            by[scope] = (by[scope] ?? 0) + 1;
            return by;
          }, {}),
      ),
      redisCommandsPerMessage: round((redisAfter.calls - redisBefore.calls) / expected, 1),
      violations,
    };
  } finally {
    await stopWorkers(running);
    await engine.dispatcher.stop();
    await engine.stop();
    for (const adapter of adapters) await adapter.stop();
    await client.close();
    await store.close();
    await slack.close();
    await discord.close();
    await emulator.close();
    admin.disconnect();
  }
}
