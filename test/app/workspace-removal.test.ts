import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWorkspaceRemoval } from '../../src/app/workspace-removal.js';
import { DeliveryLog } from '../../src/delivery/delivery-log.js';
import { DeliveryQueue, WorkerDeliveriesByChannel } from '../../src/delivery/index.js';
import { Outbox } from '../../src/delivery/outbox.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { systemClock } from '../../src/ports/index.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { exportWorkspace } from '../../src/workspaces/index.js';
import { storeBackends } from '../support/backends.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { queuedEntry, seedWorkspaces, TEAM_A, TEAM_B } from '../support/workspace-seed.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const redisBackend = (await storeBackends(join(temp.path, 'unused.sqlite'))).find((b) => b.name === 'redis')!;
let store: BotStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A seeded store and a running outbox that has loaded the seed's queues, as a poller would. */
async function removalOnSeed(name: string) {
  store = createStore({ url: `sqlite://${join(temp.path, `${name}.sqlite`)}` });
  await seedWorkspaces(store);
  const outbox = new Outbox({ keyv: store.keyv, directoryId: 'dir0aaa' });
  await outbox.load();
  const logger = createCapturingLogger();
  const metrics = createMetrics();
  // The running engine's delivery log, which remembers the pages it wrote lately.
  const deliveryLog = new DeliveryLog({
    keyv: store.keyv,
    directoryId: 'dir0aaa',
    ttlMs: 3_600_000,
    clock: systemClock,
  });
  const remove = createWorkspaceRemoval({ store, outbox, deliveryLog, logger, metrics });
  return { store, outbox, deliveryLog, logger, metrics, remove };
}

describe('a workspace that removed the bot', () => {
  it('is deleted from the store and from the running outbox, with one log line and a metric', async () => {
    const { store, outbox, logger, metrics, remove } = await removalOnSeed('removed');
    expect(outbox.depth('slack:C0A1')).toBe(2);

    await remove({ platform: 'slack', id: TEAM_A }, 'app_uninstalled');

    const left = await exportWorkspace({ store }, { platform: 'slack', id: TEAM_A });
    expect(left.subscriptions).toEqual([]);
    expect(left.queuedDeliveries).toEqual([]);
    expect(left.installations).toEqual([]);
    expect(outbox.depth('slack:C0A1')).toBe(0);
    expect(outbox.depth('slack:C0B1')).toBe(1);
    // The outbox writes its index back after dropping: the removed channel must not be in it.
    expect(await store.keyv.get('dir:dir0aaa:outbox:destinations')).not.toContain('slack:C0A1');
    expect((await exportWorkspace({ store }, { platform: 'slack', id: TEAM_B })).subscriptions).toHaveLength(
      2,
    );

    const lines = logger.lines.filter((line) => line.level === 'info');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.fields).toMatchObject({
      platform: 'slack',
      workspace: TEAM_A,
      reason: 'app_uninstalled',
      subscriptions: 3,
      queuedDeliveries: 2,
      installations: 1,
      droppedFromOutbox: 2,
    });
    const counted = await metrics.workspacesRemoved.get();
    expect(counted.values).toEqual([{ labels: { platform: 'slack', reason: 'app_uninstalled' }, value: 1 }]);
  });

  it("leaves nothing of its channels' delivery log behind in the running bot, to be written back", async () => {
    const { store, deliveryLog, remove } = await removalOnSeed('log');
    const record = (itemKey: string, outcome: 'delivered' | 'rejected') =>
      deliveryLog.record({
        at: Date.now(),
        destinationKey: 'slack:C0A1',
        itemKey,
        outcome,
        subscriptionIds: ['s1'],
      });
    // Written and remembered by the running log, and one more still on its way when the app goes.
    await record('post:1', 'delivered');
    const unwritten = record('post:2', 'delivered');
    await remove({ platform: 'slack', id: TEAM_A }, 'app_uninstalled');
    await unwritten;
    expect(await deliveryLog.recent('slack:C0A1')).toEqual([]);
    // A post in flight at the uninstall is refused afterwards: its record is the only one there.
    await record('post:3', 'rejected');
    expect((await deliveryLog.recent('slack:C0A1')).map((r) => r.itemKey)).toEqual(['post:3']);
    expect((await store.keysMatching(['dir:dir0aaa:log:slack:C0A1:'])).length).toBe(1);
    // Another workspace's log is untouched.
    expect(await deliveryLog.recent('slack:C0B1')).not.toEqual([]);
  });

  it('a second signal for the same workspace finds nothing left and still resolves', async () => {
    const { logger, remove } = await removalOnSeed('twice');
    await Promise.all([
      remove({ platform: 'slack', id: TEAM_A }, 'app_uninstalled'),
      remove({ platform: 'slack', id: TEAM_A }, 'tokens_revoked'),
    ]);
    const [first, second] = logger.lines.filter((line) => line.level === 'info');
    expect(first?.fields).toMatchObject({ subscriptions: 3, installations: 1 });
    expect(second?.fields).toMatchObject({ subscriptions: 0, queuedDeliveries: 0, installations: 0 });
  });

  it('logs an error instead of rejecting when the store fails', async () => {
    const { store, logger, remove } = await removalOnSeed('failing');
    await store.close();
    await expect(remove({ platform: 'slack', id: TEAM_A }, 'app_uninstalled')).resolves.toBeUndefined();
    expect(logger.lines.map((line) => line.level)).toContain('error');
  });
});

describe('a workspace that removed the bot, with delivery workers on Redis', () => {
  it.skipIf(redisBackend.unavailable !== undefined)(
    'loses its queued and dead worker deliveries too, and the other workspace keeps its own',
    async () => {
      const redis = new Redis(redisBackend.url);
      const namespace = `removal-${randomUUID()}`;
      try {
        const clock = { now: () => 2 };
        const queue = new DeliveryQueue(redis, `${namespace}:workers:q:dir0aaa`, clock);
        await queue.append('slack:C0A1', [queuedEntry('slack:C0A1', 'post:3', TEAM_A)]);
        await queue.bury(queuedEntry('slack:C0A2', 'post:4', TEAM_A), 'channel_not_found', 1);
        await queue.bury(queuedEntry('slack:C0B1', 'post:4', TEAM_B), 'channel_not_found', 1);
        store = createStore({ url: `sqlite://${join(temp.path, 'workers.sqlite')}` });
        await seedWorkspaces(store);
        const logger = createCapturingLogger();
        const remove = createWorkspaceRemoval({
          store,
          outbox: new Outbox({ keyv: store.keyv, directoryId: 'dir0aaa' }),
          workerDeliveries: new WorkerDeliveriesByChannel(redis, namespace, clock),
          logger,
          metrics: createMetrics(),
        });

        await remove({ platform: 'slack', id: TEAM_A }, 'app_uninstalled');

        expect(await queue.entries('slack:C0A1')).toEqual([]);
        expect((await queue.dead()).map((d) => d.id)).toEqual(['slack:C0B1|post:4']);
        expect(logger.lines.find((line) => line.level === 'info')?.fields).toMatchObject({
          queuedDeliveries: 3,
          deadDeliveries: 1,
        });
      } finally {
        const keys = await redis.keys(`${namespace}:*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
    },
  );
});
