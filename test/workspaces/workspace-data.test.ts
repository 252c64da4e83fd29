import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { exportWorkspace, forgetWorkspace } from '../../src/workspaces/index.js';
import { storeBackends } from '../support/backends.js';
import { makeTempDir } from '../support/temp-dir.js';
import { GUILD, SECRETS, seedWorkspaces, snapshot, TEAM_A, TEAM_B } from '../support/workspace-seed.js';

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
      deliveryLedger: 0,
      deliveryLog: 0,
      heldItems: 0,
      installations: 0,
      webhooks: 0,
    });
  });
});
