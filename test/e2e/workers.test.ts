import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { type ChildBot, spawnBot } from '../support/child-bot.js';
import { DELIVERY_TOKEN } from '../support/discord-delivery.js';
import { APP_ID } from '../support/discord-interactions.js';
import { freePort } from '../support/free-port.js';
import { eventually } from '../support/polling.js';
import { startRedis } from '../support/private-redis.js';
import { programProblem, unavailable } from '../support/required-tools.js';
import { stopProcess } from '../support/stop-process.js';

/**
 * The delivery workers of ADR 005 as real processes: the web process polls the emulator and hands
 * what it routes to a private Redis; `directory-bot worker` processes post it to a fake Discord
 * (which enforces the nonce and the bot's global 50/s, as Discord does). Workers are SIGKILLed
 * mid-burst and scaled 0 → 2 → 3 → 1: every channel must get every message once, in order, and
 * the workers together must never make Discord answer 429.
 */

const CHANNELS = ['300000000000000270', '300000000000000271', '300000000000000272', '300000000000000273'];
const BURST = 30;
const POSTS = '/channels/:id/messages';

const missing = unavailable(
  'the delivery workers test (a private redis-server)',
  programProblem('redis-server', ['--version'], 'apt-get install redis-server'),
);

let redis: ChildProcess | undefined;
let emulator: RunningEmulator | undefined;
// A channel's own bucket loosened (5 per 5 s would make the burst last a minute); the global 50/s kept.
const discord = new FakeDiscordRest({ token: DELIVERY_TOKEN, bucket: { limit: 1000, windowMs: 1000 } });
const processes: ChildBot[] = [];
afterAll(async () => {
  for (const bot of processes) if (bot.child.exitCode === null) await bot.stop('SIGKILL').catch(() => {});
  await discord.close();
  await emulator?.close();
  if (redis) await stopProcess(redis, 'SIGTERM');
});

/** The markers in a channel, in the order the fake Discord accepted their messages. */
function markersIn(channel: string): string[] {
  return (discord.messages.get(channel) ?? []).flatMap(
    (m) =>
      JSON.stringify(m.body)
        .match(/marker-\d+-end/g)
        ?.slice(0, 1) ?? [],
  );
}

describe('delivery workers as real processes (ADR 005)', () => {
  it.skipIf(missing !== undefined)(
    'deliver two bursts to every channel exactly once and in order while workers are SIGKILLed and scaled 0 → 2 → 3 → 1',
    async () => {
      const redisPort = await freePort();
      redis = await startRedis(redisPort);
      emulator = await startEmulator({ port: 0, seed: 27 });
      await discord.listen();
      for (const channel of CHANNELS) discord.addChannel(channel);
      const env = {
        PORT: '0',
        LOG_LEVEL: 'debug',
        DIRECTORY_BASE_URL: emulator.url,
        DIRECTORY_TOKEN: 'dev-token',
        STORE_URL: `redis://127.0.0.1:${redisPort}`,
        SUBSCRIPTIONS: CHANNELS.map((c) => `discord:${c}=comments`).join(';'),
        POLL_MIN_INTERVAL_S: '1',
        POLLER_LEASE_TTL_S: '3',
        DISCORD_TOKEN: DELIVERY_TOKEN,
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_API_URL: discord.url,
        DISCORD_GATEWAY: 'false',
        // Only the worker processes deliver: the web process polls and hands over.
        WORKER_IN_WEB: 'false',
      };
      const start = (command: 'start' | 'worker') => {
        const bot = spawnBot([command], env);
        processes.push(bot);
        return bot;
      };
      const web = start('start');
      await web.waitFor(/now polls and delivers/);
      await web.waitFor(/"feed":"comments".*"msg":"polled feed"/);

      const markers: string[] = [];
      const burst = () => {
        for (let i = 0; i < BURST; i += 1) {
          const marker = `marker-${String(markers.length).padStart(4, '0')}-end`;
          markers.push(marker);
          emulator!.admin.addComment({ body: marker });
        }
      };
      const delivered = () => CHANNELS.reduce((sum, c) => sum + markersIn(c).length, 0);

      // No worker yet: the burst waits in Redis.
      burst();
      await web.waitFor(/handed to delivery workers/);
      expect(delivered()).toBe(0);

      // Two workers; one is SIGKILLed mid-burst (its drain jobs go to the other once their locks lapse).
      const first = start('worker');
      const second = start('worker');
      await Promise.all([first.waitFor(/delivery worker ready/), second.waitFor(/delivery worker ready/)]);
      await eventually(() => delivered() >= 10, 15_000, 'the first deliveries');
      expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

      // Three workers and a second burst; then one, by a SIGKILL and a SIGTERM.
      const third = start('worker');
      const fourth = start('worker');
      await Promise.all([third.waitFor(/delivery worker ready/), fourth.waitFor(/delivery worker ready/)]);
      burst();
      await eventually(
        () => delivered() >= (BURST + 10) * CHANNELS.length,
        20_000,
        'part of the second burst',
      );
      expect((await third.stop('SIGKILL')).signal).toBe('SIGKILL');
      expect((await second.stop('SIGTERM')).code).toBe(0);

      const expected = markers.length * CHANNELS.length;
      await eventually(() => delivered() >= expected, 20_000, 'every message delivered');
      // A moment for anything that would arrive twice.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await fourth.stop('SIGTERM')).code).toBe(0);
      expect((await web.stop('SIGTERM')).code).toBe(0);

      for (const channel of CHANNELS) {
        // Once each, in the order the comments were made: nothing lost, nothing twice.
        expect(markersIn(channel), channel).toEqual(markers);
      }
      // The workers shared Discord's budget: never a 429 (the global 50/s above all).
      const refused = discord.callsTo('POST', POSTS).filter((call) => call.status === 429);
      expect(refused).toEqual([]);
      expect(discord.problems).toEqual([]);
    },
    60_000,
  );
});
