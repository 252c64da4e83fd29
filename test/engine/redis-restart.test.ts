import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBot } from '../support/child-bot.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { freePort } from '../support/free-port.js';
import { eventually } from '../support/polling.js';
import { startRedis as startPrivateRedis } from '../support/private-redis.js';
import { programProblem, unavailable } from '../support/required-tools.js';
import { stopProcess } from '../support/stop-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A private Redis with an append-only file, so a restart keeps the data as a managed Redis would. */
const startRedis = (port: number, dir: string) =>
  startPrivateRedis(port, ['--dir', dir, '--appendonly', 'yes']);

const missing = unavailable(
  'the Redis restart tests (a private redis-server)',
  programProblem('redis-server', ['--version'], 'apt-get install redis-server'),
);
const world = await startWorld();
const temp = makeTempDir();
afterAll(async () => {
  await world.close();
  temp.cleanup();
});

describe('Redis restarted during operation', () => {
  it.skipIf(missing !== undefined)(
    'loses nothing and posts nothing twice across the outage',
    async () => {
      const port = await freePort();
      let redis = await startRedis(port, temp.path);
      const bot = await startInstance({
        emulator: world.emulator,
        storeUrl: `redis://127.0.0.1:${port}`,
        namespace: `restart-${randomUUID()}`,
        settings: { pollMinIntervalMs: 100, leaseTtlMs: 1500, leaseRenewMs: 300 },
      });
      try {
        await bot.engine.subscriptions.add({
          platform: 'console',
          channelId: 'news',
          feed: 'comments',
          filters: {},
          createdBy: 't',
        });
        await bot.engine.start();
        await eventually(
          () => bot.engine.polling.health().some((h) => h.lastSuccessAt),
          10_000,
          'first poll',
        );
        for (let i = 0; i < 3; i += 1) world.emulator.admin.addComment({ body: `before outage ${i}` });
        await eventually(() => bot.adapter.deliveries.length === 3, 10_000, 'deliveries before the outage');

        await stopProcess(redis, 'SIGKILL', { port });
        for (let i = 0; i < 3; i += 1) world.emulator.admin.addComment({ body: `during outage ${i}` });
        await new Promise((resolve) => setTimeout(resolve, 1500));
        redis = await startRedis(port, temp.path);

        await eventually(() => bot.adapter.deliveries.length >= 6, 20_000, 'deliveries after the outage');
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const texts = bot.adapter.deliveries.map((d) => d.message.text);
        expect(texts.sort()).toEqual(
          [0, 1, 2].flatMap((i) => [`before outage ${i}`, `during outage ${i}`]).sort(),
        );
      } finally {
        await bot.close().catch(() => {});
        redis.kill('SIGKILL');
      }
    },
    60_000,
  );

  it.skipIf(missing !== undefined)(
    'shuts down with exit 0 within the deadline while Redis is gone',
    async () => {
      const port = await freePort();
      const redis = await startRedis(port, temp.path);
      const bot = spawnBot(['start'], {
        PORT: '0',
        STORE_URL: `redis://127.0.0.1:${port}`,
        DIRECTORY_BASE_URL: world.emulator.url,
        DIRECTORY_TOKEN: 'dev-token',
        SUBSCRIPTIONS: 'console:news=comments',
        POLL_MIN_INTERVAL_S: '1',
        SHUTDOWN_TIMEOUT_S: '8',
      });
      try {
        await bot.waitFor(/now polls and delivers/);
        await stopProcess(redis, 'SIGKILL', { port });
        world.emulator.admin.addComment({ body: 'while the store is down' });
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const signalledAt = Date.now();
        const exit = await bot.stop('SIGTERM');
        expect(exit.code).toBe(0);
        // Bounded by SHUTDOWN_TIMEOUT_S (8 s), not by the store coming back.
        expect(Date.now() - signalledAt).toBeLessThan(8000);
      } finally {
        bot.child.kill('SIGKILL');
        redis.kill('SIGKILL');
      }
    },
    60_000,
  );
});
