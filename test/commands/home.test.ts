import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHomeService } from '../../src/commands/index.js';
import type { HomeViewer } from '../../src/ports/index.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { CHANNEL, type Harness, startHarness } from '../support/command-harness.js';
import { homeDeps } from '../support/home-tab-harness.js';

const MANAGER = { canManageChannel: true, userId: 'UMGR' };

describe('the home surface core', () => {
  let h: Harness;
  let home: ReturnType<typeof createHomeService>;
  let stale: { workspaceId: string; userId: string }[][];

  const viewer = (userId: string, extra: Partial<HomeViewer> = {}): HomeViewer => ({
    platform: 'slack',
    workspaceId: 'T0123',
    userId,
    canManageChannels: true,
    soleWorkspace: false,
    ...extra,
  });

  beforeEach(async () => {
    h = await startHarness();
    home = createHomeService({
      deps: { ...homeDeps(h), adminUserIds: [] },
      commands: h.handler,
      store: h.store.keyv,
      logger: createCapturingLogger(),
      maxViewers: 3,
    });
    stale = [];
    home.onStale('slack', (viewers) => stale.push([...viewers]));
  });
  afterEach(async () => {
    await h.close();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it("shows a manager their workspace's subscriptions with the last delivery, and only counts paused ones for anyone else", async () => {
    await h.run('subscribe posts', MANAGER);
    await h.run('subscribe comments', MANAGER);
    const [posts, comments] = await h.subscriptions.forChannel('slack', CHANNEL);
    await h.subscriptions.pause('slack', CHANNEL, comments?.id ?? '', 'UMGR');
    home.recordDelivery([posts?.id ?? ''], h.clock.now() - 60_000);
    await h.subscriptions.add({
      platform: 'slack',
      channelId: 'COTHERWS',
      workspaceId: 'T9',
      feed: 'live',
      filters: {},
      createdBy: 'x',
    });

    const managed = await home.view(viewer('UADMIN'));
    expect(managed.channels.map((c) => c.channelId)).toEqual([CHANNEL]);
    expect(managed.channels[0]?.subscriptions[0]?.lastDelivery).toMatch(/UTC$/);
    expect(managed.channels[0]?.subscriptions[1]?.paused).toMatch(
      /^a channel manager paused it \(user UMGR,/,
    );
    expect(managed.status.paused.map((s) => s.id)).toEqual([comments?.id]);
    expect(managed.status.lead).toBe('Status: 1 subscription(s) paused in this workspace.');

    const member = await home.view(viewer('UMEMBER', { canManageChannels: false }));
    expect(member.canManage).toBe(false);
    expect(member.channels).toEqual([]);
    expect(member.status).toMatchObject({ paused: [], pausedElsewhere: 1 });
  });

  it('tells the adapter once per change which recent viewers of the workspace to republish, keeping the most recent few', async () => {
    for (const [i, id] of ['U1', 'U2', 'U3', 'U4'].entries()) {
      h.clock.advance(1000 * (i + 1));
      await home.view(viewer(id));
    }
    await home.view(viewer('UELSEWHERE', { workspaceId: 'T9' }));
    await h.run('subscribe posts', MANAGER);
    await settle();
    expect(stale).toHaveLength(1);
    expect(stale[0]?.map((v) => v.userId).sort()).toEqual(['U2', 'U3', 'U4']);
    // An identical subscribe changes nothing: nobody is republished.
    await h.run('subscribe posts', MANAGER);
    await settle();
    expect(stale).toHaveLength(1);
    // Viewers who looked more than 30 minutes ago are no longer kept current.
    h.clock.advance(31 * 60_000);
    await h.run('subscribe comments', MANAGER);
    await settle();
    expect(stale).toHaveLength(1);
  });

  it('counts routes from SUBSCRIPTIONS as the sole workspace’s', async () => {
    await home.view(viewer('UADMIN', { soleWorkspace: true }));
    await h.subscriptions.seed([{ platform: 'slack', channelId: 'C0SEEDED1', feed: 'posts', filters: {} }]);
    await settle();
    expect(stale.map((s) => s.map((v) => v.userId))).toEqual([['UADMIN']]);
    const view = await home.view(viewer('UADMIN', { soleWorkspace: true }));
    expect(view.channels.map((c) => c.channelId)).toEqual(['C0SEEDED1']);
    expect((await home.view(viewer('UADMIN'))).channels).toEqual([]);
  });

  it("shows a button's answer once, in the presser's next view", async () => {
    await h.run('subscribe posts', MANAGER);
    const [posts] = await h.subscriptions.forChannel('slack', CHANNEL);
    const result = await home.act(viewer('UADMIN'), 'pause', CHANNEL, posts?.id ?? '');
    expect(result).toMatchObject({ refused: false, changed: true });
    expect((await home.view(viewer('UADMIN'))).notice?.text).toMatch(/^Paused /);
    expect((await home.view(viewer('UADMIN'))).notice).toBeUndefined();
    const again = await home.act(viewer('UADMIN'), 'pause', CHANNEL, posts?.id ?? '');
    expect(again).toMatchObject({ refused: false, changed: false });
  });
});
