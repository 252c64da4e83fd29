import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeDeadDelivery } from '../../src/cli/deliveries-command.js';
import { DeliveryQueue } from '../../src/delivery/index.js';
import { directoryIdFor } from '../../src/store/directory-keys.js';
import { storeBackends } from '../support/backends.js';
import { spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';
import { queuedEntry } from '../support/workspace-seed.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const redisBackend = (await storeBackends(join(temp.path, 'unused.sqlite'))).find((b) => b.name === 'redis')!;
const DAY = 86_400_000;
/** A directory of its own, so the bot's namespace on the shared server holds nothing else here. */
const BASE_URL = 'http://127.0.0.1:9/deliveries-command-test';

describe('directory-bot deliveries dead', () => {
  it('says when each dead delivery died, how long ago, and when it is deleted', () => {
    const died = Date.UTC(2026, 9, 25, 0, 30); // the night Europe's clocks go back: UTC is unmoved
    const line = describeDeadDelivery(
      {
        id: 'slack:C1|post:1',
        at: died,
        reason: 'failed: boom',
        entry: queuedEntry('slack:C1', 'post:1', 'T1'),
      },
      died + 2 * DAY + 5 * 3_600_000 + 59_000,
      30 * DAY,
    );
    expect(line).toBe(
      'slack:C1|post:1\tA post\tfailed: boom\tdied 2026-10-25T00:30:00.000Z (2 d 5 h ago), deleted 2026-11-24T00:30:00.000Z',
    );
  });

  it.skipIf(redisBackend.unavailable !== undefined)(
    'lists only what DEDUPE_TTL_DAYS still keeps, with its age and deletion date, and tells the retention in --help',
    async () => {
      const redis = new Redis(redisBackend.url);
      const prefix = `directory-bot:workers:q:${directoryIdFor(BASE_URL)}`;
      try {
        const now = Date.now();
        // Kept three days: one died a day ago, one four days ago (gone, whether or not anyone looked).
        const queue = new DeliveryQueue(redis, prefix, {
          deadRetentionMs: 3 * DAY,
          now: () => now - 4 * DAY,
        });
        await queue.bury(queuedEntry('slack:C0OLD', 'post:1', 'T1'), 'failed: old', now - 4 * DAY);
        await queue.bury(queuedEntry('slack:C0NEW', 'post:2', 'T1'), 'failed: new', now - DAY);
        const bot = spawnBot(['deliveries', 'dead'], {
          STORE_URL: redisBackend.url,
          DIRECTORY_BASE_URL: BASE_URL,
          DIRECTORY_TOKEN: 'unused',
          DEDUPE_TTL_DAYS: '3',
        });
        const { code } = await bot.exited;
        expect(code, bot.output()).toBe(0);
        expect(bot.output()).not.toContain('C0OLD');
        expect(bot.output()).toContain(
          `slack:C0NEW|post:2\tA post\tfailed: new\tdied ${new Date(now - DAY).toISOString()} (1 d 0 h ago), deleted ${new Date(now + 2 * DAY).toISOString()}`,
        );
        expect(bot.output()).toContain('1 dead deliveries');

        const help = spawnBot(['deliveries', 'dead', '--help']);
        await help.exited;
        expect(help.output()).toContain('kept DEDUPE_TTL_DAYS');
      } finally {
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
    },
    30_000,
  );
});
