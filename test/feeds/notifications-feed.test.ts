import { describe, expect, it } from 'vitest';
import { createNotificationsFeed } from '../../src/feeds/notifications-feed.js';
import { feedOnEmulator, idsOf, provenanceOf, skippedRecords } from '../support/feed-emulator.js';

const MINUTE = 60_000;
const WORLD = { at: '2026-11-23T15:00:00Z', emulator: { tokens: ['dev-token', 'someone-else'] } };
const notificationsFeed = feedOnEmulator(
  (deps) => createNotificationsFeed({ ...deps, clearAfterDelivery: false }),
  WORLD,
);
const clearingNotificationsFeed = feedOnEmulator(
  (deps) => createNotificationsFeed({ ...deps, clearAfterDelivery: true }),
  WORLD,
);

describe('the notifications feed', () => {
  it("starts from now: the first poll yields nothing of the token user's unread notifications", async () => {
    const { emulator, feed } = await notificationsFeed();
    emulator.admin.addNotification('dev-token', { sentence: 'Waiting before the bot started' });
    const { items } = await feed.poll(undefined);
    expect(items).toEqual([]);
  });

  it("yields the token user's new notifications oldest first, each once, and nobody else's", async () => {
    const { clock, emulator, feed } = await notificationsFeed();
    const seeded = await feed.poll(undefined);
    const first = emulator.admin.addNotification('dev-token', { sentence: 'first' });
    clock.advance(MINUTE);
    emulator.admin.addNotification('someone-else', { sentence: 'not for this bot' });
    const second = emulator.admin.addNotification('dev-token', { sentence: 'second' });
    clock.advance(MINUTE);
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual([String(first.id), String(second.id)]);
    expect(provenanceOf(poll.items)).toEqual([
      ['notifications', 'new', clock.now()],
      ['notifications', 'new', clock.now()],
    ]);

    const third = emulator.admin.addNotification('dev-token', { sentence: 'third' });
    clock.advance(MINUTE);
    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).toEqual([String(third.id)]);
    const quiet = await feed.poll(next.nextState);
    expect(quiet.items).toEqual([]);
  });

  it('clears them upstream once queued only when asked to, and only when there was news', async () => {
    const kept = await notificationsFeed();
    const keptOne = kept.emulator.admin.addNotification('dev-token', { sentence: 'kept' });
    await kept.feed.afterQueued?.(await kept.feed.recent({ limit: 50 }));
    expect(idsOf(await kept.feed.recent({ limit: 50 }))).toContain(String(keptOne.id));

    const cleared = await clearingNotificationsFeed();
    cleared.emulator.admin.addNotification('dev-token', { sentence: 'cleared' });
    await cleared.feed.afterQueued?.([]);
    expect(await cleared.feed.recent({ limit: 50 })).not.toEqual([]);
    await cleared.feed.afterQueued?.(await cleared.feed.recent({ limit: 50 }));
    expect(await cleared.feed.recent({ limit: 50 })).toEqual([]);
  });

  it('passes on a notification mangled on the wire (it needs nothing but an id) and keeps its neighbours', async () => {
    const { clock, clientEvents, emulator, feed } = await notificationsFeed();
    const seeded = await feed.poll(undefined);
    const good = emulator.admin.addNotification('dev-token', { sentence: 'good neighbour' });
    clock.advance(MINUTE);
    // The emulator mangles the first record of the next answer, the newest notification: its
    // id becomes a string and a name field a number. Notifications are read tolerantly (only
    // the id is required, and a string id is a valid one), so nothing is skipped.
    emulator.admin.addNotification('dev-token', { sentence: 'mangled on the wire' });
    clock.advance(MINUTE);
    emulator.admin.injectFault({ route: '/v1/notifications', count: 1, kind: 'bad-record' });
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual([String(good.id), 'not-an-id']);
    expect(poll.items[1]?.record).toMatchObject({ notification: { text: 'mangled on the wire' } });
    expect(skippedRecords(clientEvents)).toBe(0);

    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).not.toContain(String(good.id));
  });

  it('recent(): the newest unread notifications first, at most the limit, without moving the cursor', async () => {
    const { clock, emulator, feed } = await notificationsFeed();
    const seeded = await feed.poll(undefined);
    const added = [0, 1, 2].map((i) => {
      clock.advance(MINUTE);
      return String(emulator.admin.addNotification('dev-token', { sentence: `recent ${i}` }).id);
    });
    const recent = await feed.recent({ limit: 2 });
    expect(idsOf(recent)).toEqual([added[2], added[1]]);
    expect(provenanceOf(recent)).toEqual([
      ['notifications', 'new', clock.now()],
      ['notifications', 'new', clock.now()],
    ]);

    const { items } = await feed.poll(seeded.nextState);
    expect(idsOf(items)).toEqual(added);
  });
});
