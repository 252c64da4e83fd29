import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryQueue, WorkerDeliveriesByChannel } from '../../src/delivery/index.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { exportWorkspace, forgetWorkspace } from '../../src/workspaces/index.js';
import { storeBackends } from '../support/backends.js';
import { makeTempDir } from '../support/temp-dir.js';
import {
  GUILD,
  queuedEntry,
  SECRETS,
  seedWorkspaces,
  snapshot,
  TEAM_A,
  TEAM_B,
} from '../support/workspace-seed.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'workspaces.sqlite'));

const teamA = { platform: 'slack', id: TEAM_A } as const;
const teamB = { platform: 'slack', id: TEAM_B } as const;
const guild = { platform: 'discord', id: GUILD } as const;
/** What the seed holds about team A: C0SHARED's queue and ledger are kept for team B. */
const TEAM_A_COUNTS = {
  subscriptions: 3,
  reminders: 1,
  channelZones: 1,
  queuedDeliveries: 2,
  deadDeliveries: 0,
  deliveryLedger: 6,
  deliveryLog: 2,
  heldItems: 0,
  installations: 1,
  webhooks: 0,
};
/** An export minus the moment it was made, to compare two of them. */
const content = async (store: BotStore, ref: typeof teamA | typeof teamB | typeof guild) => {
  const { exportedAt: _at, ...rest } = await exportWorkspace({ store }, ref);
  return rest;
};

describe.each(backends)('one workspace’s data on the $name store', (backend) => {
  let store: BotStore;
  beforeEach(async (context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    store = createStore({ url: backend.url, namespace: `workspaces-${randomUUID()}` });
    await seedWorkspaces(store);
  });
  afterEach(async () => {
    await store?.keyv.clear().catch(() => {});
    await store?.close();
  });

  it('exports the subscriptions, reminders, queued deliveries, ledger keys and installation, and no secret', async () => {
    const exported = await exportWorkspace({ store }, teamA);
    expect(exported.reminders).toEqual([
      expect.objectContaining({ userId: 'U0REMINDA', workspaceId: TEAM_A, eventId: '7' }),
    ]);
    expect(exported.channelZones).toEqual([
      expect.objectContaining({ channelId: 'C0A1', zone: 'Europe/Berlin', setBy: 'U1' }),
    ]);
    expect(exported.workspace).toBe(`slack:${TEAM_A}`);
    expect(exported.subscriptions.map((s) => s.channelId).sort()).toEqual(['C0A1', 'C0A2', 'C0SHARED']);
    expect(exported.channels).toEqual(['slack:C0A1', 'slack:C0A2']);
    expect(exported.sharedChannels).toEqual(['slack:C0SHARED']);
    expect(exported.queuedDeliveries).toEqual([
      {
        key: 'dir:dir0aaa:outbox:queue:slack:C0A1',
        entries: [
          expect.objectContaining({ itemKey: 'post:1' }),
          expect.objectContaining({ itemKey: 'post:2' }),
        ],
      },
    ]);
    expect(exported.deliveryLedger).toEqual([
      'dir:dir0aaa:sent:slack:C0A1:post:9',
      'dir:dir0aaa:sent:slack:C0A1:post:9#shown',
      'dir:dir0bbb:sent:slack:C0A1:post:9',
      'sent:slack:C0A1:post:8',
      'dir:dir0aaa:sent:slack:C0A2:post:9',
      'dir:dir0bbb:sent:slack:C0A2:post:9',
    ]);
    expect(exported.deliveryLog).toEqual([
      {
        key: 'dir:dir0aaa:log:slack:C0A1:now',
        records: [expect.objectContaining({ itemKey: 'post:9', messageId: 'm9' })],
      },
      { key: 'dir:dir0aaa:log:slack:C0A2:now', records: [expect.objectContaining({ itemKey: 'post:9' })] },
    ]);
    expect(exported.installations).toHaveLength(1);
    expect(exported.installations[0]).toMatchObject({
      key: `slack:installation:team:${TEAM_A}`,
      installation: {
        team: { id: TEAM_A },
        bot: { id: 'B0', scopes: ['chat:write'], token: '[secret: not exported]' },
      },
    });
    const text = JSON.stringify(exported);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it('finds a Discord server’s channels through its subscriptions and queued deliveries', async () => {
    const exported = await exportWorkspace({ store }, guild);
    expect(exported.channels).toEqual(['discord:222222222222222222']);
    expect(exported.queuedDeliveries).toHaveLength(1);
    expect(exported.deliveryLedger).toHaveLength(2);
    expect(exported.installations).toEqual([]);
  });

  it('lists in a dry run what would go and deletes nothing', async () => {
    const before = await snapshot(store);
    const report = await forgetWorkspace({ store }, teamA, { dryRun: true });
    expect(report.counts).toEqual(TEAM_A_COUNTS);
    expect(report.keys).toContain(`slack:installation:team:${TEAM_A}`);
    expect(report.keys).toContain('dir:dir0aaa:outbox:queue:slack:C0A1');
    expect(await snapshot(store)).toEqual(before);
  });

  it('forgets one workspace and leaves the other, the shared channel and the server intact', async () => {
    const otherBefore = await content(store, teamB);
    const guildBefore = await content(store, guild);
    const report = await forgetWorkspace({ store }, teamA, { dryRun: false });
    expect(report.counts).toEqual(TEAM_A_COUNTS);

    const after = await exportWorkspace({ store }, teamA);
    expect(after.subscriptions).toEqual([]);
    expect(after.reminders).toEqual([]);
    expect(after.channelZones).toEqual([]);
    expect(after.channels).toEqual([]);
    expect(after.queuedDeliveries).toEqual([]);
    expect(after.installations).toEqual([]);
    const left = await snapshot(store);
    expect(Object.keys(left).filter((key) => /C0A[12]|T0AAAAAAA/.test(key))).toEqual([]);
    // The outbox index still names the other destinations, so their queues reload.
    expect(left['dir:dir0aaa:outbox:destinations']).toEqual(['slack:C0B1', 'discord:222222222222222222']);
    expect(left['dir:dir0aaa:sent:slack:C0SHARED:post:9']).toBe(1);
    expect((left['reminders'] as { userId: string }[]).map((r) => r.userId)).toEqual(['U0REMINDB']);
    expect((left['channel-zones'] as { zone: string }[]).map((z) => z.zone)).toEqual(['Asia/Tokyo']);
    expect((left['subscriptions'] as { channelId: string }[]).map((s) => s.channelId).sort()).toEqual([
      '222222222222222222',
      'C0B1',
      'C0ENV',
      'C0SHARED',
    ]);
    // The shared channel is now the other workspace's alone, and it keeps everything.
    expect(await content(store, teamB)).toEqual({
      ...otherBefore,
      channels: ['slack:C0B1', 'slack:C0SHARED'],
      sharedChannels: [],
      deliveryLedger: [
        ...otherBefore.deliveryLedger,
        'dir:dir0aaa:sent:slack:C0SHARED:post:9',
        'dir:dir0bbb:sent:slack:C0SHARED:post:9',
      ],
      deliveryLog: [
        ...otherBefore.deliveryLog,
        {
          key: 'dir:dir0aaa:log:slack:C0SHARED:now',
          records: [expect.objectContaining({ itemKey: 'post:9' })],
        },
      ],
    });
    expect(await content(store, guild)).toEqual(guildBefore);
    // Forgetting again finds nothing: the command can be re-run safely.
    expect((await forgetWorkspace({ store }, teamA, { dryRun: false })).counts).toEqual({
      subscriptions: 0,
      reminders: 0,
      channelZones: 0,
      queuedDeliveries: 0,
      deadDeliveries: 0,
      deliveryLedger: 0,
      deliveryLog: 0,
      heldItems: 0,
      installations: 0,
      webhooks: 0,
    });
  });
});

const redisBackend = backends.find((b) => b.name === 'redis');

describe('one workspace’s messages in the delivery workers’ queues (Redis)', () => {
  let store: BotStore;
  let redis: Redis;
  let namespace: string;
  let workers: WorkerDeliveriesByChannel;
  // The dead deliveries below died on 2 January, a day before this clock: well within their retention.
  const clock = { now: () => Date.UTC(2026, 0, 3) };
  const queueOf = (directoryId: string) =>
    new DeliveryQueue(redis, `${namespace}:workers:q:${directoryId}`, clock);

  beforeEach(async (context) => {
    if (redisBackend?.unavailable || !redisBackend) return context.skip(redisBackend?.unavailable);
    namespace = `workspaces-${randomUUID()}`;
    store = createStore({ url: redisBackend.url, namespace });
    redis = new Redis(redisBackend.url);
    workers = new WorkerDeliveriesByChannel(redis, namespace, clock);
    await seedWorkspaces(store);
    // Team A: two messages queued for C0A1 (the first claimed by a worker that went away), one
    // for C0A2 in another directory, a reminder DM to one of its people, and a message given up
    // on; team B: a queued message and a dead one of its own, which must stay.
    const a = queueOf('dir0aaa');
    await a.append('slack:C0A1', [
      queuedEntry('slack:C0A1', 'post:3', TEAM_A),
      queuedEntry('slack:C0A1', 'post:4', TEAM_A),
    ]);
    await a.claim(queuedEntry('slack:C0A1', 'post:3', TEAM_A), 1000);
    await a.append('slack:dm:U0REMINDA', [queuedEntry('slack:dm:U0REMINDA', 'reminder:r1', TEAM_A)]);
    await a.append('slack:C0B1', [queuedEntry('slack:C0B1', 'post:3', TEAM_B)]);
    await a.bury(queuedEntry('slack:C0A2', 'post:5', TEAM_A), 'channel_not_found', Date.UTC(2026, 0, 2));
    await a.bury(queuedEntry('slack:C0B1', 'post:5', TEAM_B), 'ratelimited', Date.UTC(2026, 0, 2));
    await queueOf('dir0bbb').append('slack:C0A2', [queuedEntry('slack:C0A2', 'post:6', TEAM_A)]);
  });
  afterEach(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await store.close();
  });

  it('exports the queued and dead worker deliveries of its channels and DMs, and none of the other’s', async () => {
    const exported = await exportWorkspace({ store, workerDeliveries: workers }, teamA);
    expect(exported.channels).toEqual(['slack:C0A1', 'slack:C0A2', 'slack:dm:U0REMINDA']);
    expect(exported.queuedWorkerDeliveries).toEqual([
      {
        key: `${namespace}:workers:q:dir0aaa:q:slack:C0A1`,
        entries: [
          expect.objectContaining({
            itemKey: 'post:3',
            message: expect.objectContaining({ title: 'A post' }),
          }),
          expect.objectContaining({ itemKey: 'post:4' }),
        ],
      },
      {
        key: `${namespace}:workers:q:dir0aaa:q:slack:dm:U0REMINDA`,
        entries: [expect.objectContaining({ itemKey: 'reminder:r1' })],
      },
      {
        key: `${namespace}:workers:q:dir0bbb:q:slack:C0A2`,
        entries: [expect.objectContaining({ itemKey: 'post:6' })],
      },
    ]);
    expect(exported.deadDeliveries).toEqual([
      {
        key: `${namespace}:workers:q:dir0aaa:dead`,
        id: 'slack:C0A2|post:5',
        at: '2026-01-02T00:00:00.000Z',
        reason: 'channel_not_found',
        entry: expect.objectContaining({ itemKey: 'post:5', destinationKey: 'slack:C0A2' }),
      },
    ]);
    const other = await exportWorkspace({ store, workerDeliveries: workers }, teamB);
    expect(other.queuedWorkerDeliveries.map((q) => q.key)).toEqual([
      `${namespace}:workers:q:dir0aaa:q:slack:C0B1`,
    ]);
    expect(other.deadDeliveries.map((d) => d.id)).toEqual(['slack:C0B1|post:5']);
  });

  it('forgets them with the workspace (claims included) and leaves the other workspace’s', async () => {
    const dry = await forgetWorkspace({ store, workerDeliveries: workers }, teamA, { dryRun: true });
    expect(dry.counts).toMatchObject({ queuedDeliveries: 2 + 4, deadDeliveries: 1 });
    expect(dry.keys).toContain(`${namespace}:workers:q:dir0bbb:q:slack:C0A2`);
    expect(await queueOf('dir0aaa').size()).toBe(4);

    const report = await forgetWorkspace({ store, workerDeliveries: workers }, teamA, { dryRun: false });
    expect(report.counts).toMatchObject({ queuedDeliveries: 6, deadDeliveries: 1 });
    const after = await exportWorkspace({ store, workerDeliveries: workers }, teamA);
    expect(after.queuedWorkerDeliveries).toEqual([]);
    expect(after.deadDeliveries).toEqual([]);
    // Nothing of its channels is left under the workers' keys: FIFOs, entries, revisions, claims.
    const left = await redis.keys(`${namespace}:workers:*`);
    expect(left.filter((key) => /C0A[12]|U0REMINDA/.test(key))).toEqual([]);
    // The other workspace keeps its message, its dead delivery and the queue's count of it.
    expect(await queueOf('dir0aaa').entries('slack:C0B1')).toEqual([
      expect.objectContaining({ itemKey: 'post:3' }),
    ]);
    expect((await queueOf('dir0aaa').dead()).map((d) => d.id)).toEqual(['slack:C0B1|post:5']);
    expect(await queueOf('dir0aaa').size()).toBe(1);
    expect(await queueOf('dir0bbb').size()).toBe(0);
    // A drain job left for a forgotten channel finds nothing to send.
    expect(await queueOf('dir0aaa').peek('slack:C0A1')).toBeUndefined();
    // Again: nothing more to delete.
    const again = await forgetWorkspace({ store, workerDeliveries: workers }, teamA, { dryRun: false });
    expect(again.counts).toMatchObject({ queuedDeliveries: 0, deadDeliveries: 0 });
  });
});
