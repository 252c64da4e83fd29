import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import Keyv from 'keyv';
import { afterAll, describe, expect, it } from 'vitest';
import { panelAnnouncer } from '../../src/app/panel-wiring.js';
import { Outbox } from '../../src/delivery/outbox.js';
import { DeliveryQueue } from '../../src/delivery/workers/delivery-queue.js';
import { workerNames } from '../../src/delivery/workers/drain-jobs.js';
import { HandOff } from '../../src/delivery/workers/hand-off.js';
import type { Message } from '../../src/ports/index.js';
import { storeBackends } from '../support/backends.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A change made in the panel is said in its channel, whichever web instance served the page. */

const temp = makeTempDir();
const redisBackend = (await storeBackends(join(temp.path, 'unused.sqlite'))).find((b) => b.name === 'redis')!;
const prefix = `test-announce-${randomUUID()}`;
const redis = redisBackend.unavailable === undefined ? new Redis(redisBackend.url) : undefined;
afterAll(async () => {
  if (redis !== undefined) {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>)
      if (keys.length > 0) await redis.unlink(...keys);
    redis.disconnect();
  }
  temp.cleanup();
});

const where = { platform: 'slack', channelId: 'C0PANEL', workspaceId: 'T1' };
const change: Message = {
  kind: 'info',
  title: 'Subscriptions changed in the control panel',
  text: 'Ada: Subscribed this channel to comments',
  fallback: 'Ada changed this channel’s subscriptions in the control panel',
};
const clock = { now: () => Date.UTC(2026, 10, 27, 6, 0) };

describe('announcing a panel change', () => {
  it('queues it in the outbox on the instance that polls', async () => {
    const outbox = new Outbox({ keyv: new Keyv(), directoryId: 'd1' });
    const announce = panelAnnouncer(
      { leader: { isLeader: true }, outbox, handOff: undefined },
      createCapturingLogger(),
      clock,
    );
    await announce(where, change);
    expect(outbox.entries().map((e) => [e.destinationKey, e.message.text])).toEqual([
      ['slack:C0PANEL', 'Ada: Subscribed this channel to comments'],
    ]);
  });

  it.skipIf(redisBackend.unavailable !== undefined)(
    'hands it to the delivery workers from an instance that does not poll, leaving the poller’s outbox alone',
    async () => {
      const outbox = new Outbox({ keyv: new Keyv(), directoryId: 'd1' });
      const names = workerNames(prefix, 'd1');
      const handOff = new HandOff({ outbox, redisUrl: redisBackend.url, names });
      try {
        const announce = panelAnnouncer(
          { leader: { isLeader: false }, outbox, handOff },
          createCapturingLogger(),
          clock,
        );
        await announce(where, change);
        expect(outbox.size()).toBe(0);
        const queued = await new DeliveryQueue(redis!, names.queuePrefix).entries('slack:C0PANEL');
        expect(queued.map((e) => [e.destination, e.message.text])).toEqual([
          [
            { platform: 'slack', channelId: 'C0PANEL', workspaceId: 'T1' },
            'Ada: Subscribed this channel to comments',
          ],
        ]);
        // A worker is told: the channel's drain job exists.
        expect(await redis!.exists(`${names.bullPrefix}:${names.queueName}:meta`)).toBe(1);
      } finally {
        await handOff.close();
      }
    },
  );

  it('says in the log why a change was not announced where nothing can deliver it', async () => {
    const outbox = new Outbox({ keyv: new Keyv(), directoryId: 'd1' });
    const logger = createCapturingLogger();
    await panelAnnouncer(
      { leader: { isLeader: false }, outbox, handOff: undefined },
      logger,
      clock,
    )(where, change);
    expect(outbox.size()).toBe(0);
    expect(logger.lines.map((l) => l.message)).toContain(
      'panel change not announced: this instance does not deliver',
    );
  });
});
