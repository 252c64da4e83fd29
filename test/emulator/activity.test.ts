import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

describe('activity simulator', () => {
  it('makes new records appear as the manual clock advances, without sleeping', async () => {
    const h = await startHarness({ activityPerMinute: 60 });
    const before = h.emulator.admin.counts();
    const latestComment = h.emulator.admin.latestCommentId();
    h.emulator.admin.advanceClock(10 * 60_000);
    const after = h.emulator.admin.counts();
    const grown =
      after.comments -
      before.comments +
      (after.posts - before.posts) +
      (after.featuredCollections - before.featuredCollections) +
      (after.liveEvents - before.liveEvents) +
      (after.notifications - before.notifications) +
      // What churn removed was created too.
      (after.removed.posts - before.removed.posts) +
      (after.removed.comments - before.removed.comments) +
      (after.removed.liveEvents - before.removed.liveEvents);
    expect(grown).toBeGreaterThanOrEqual(590);
    const fresh = (await h.get(`/v1/comments?newer=${latestComment}&per_page=50`)).json().comments;
    expect(fresh.length).toBeGreaterThan(0);
  });

  it('catches up on the next request when the test moves the clock itself', async () => {
    const h = await startHarness({ activityPerMinute: 30 });
    const before = h.emulator.admin.counts().comments + h.emulator.admin.counts().posts;
    h.clock.advance(4 * 60_000);
    await h.get('/v1/live');
    const after = h.emulator.admin.counts().comments + h.emulator.admin.counts().posts;
    expect(after).toBeGreaterThan(before);
  });

  it('runs a given span of activity with tick and does nothing when switched off', async () => {
    const on = await startHarness({ activityPerMinute: 12 });
    expect(on.emulator.admin.tick(60_000)).toBe(12);
    expect((await on.admin('POST', '/tick', { ms: 30_000 })).json().events).toBe(6);
    const off = await startHarness();
    expect(off.emulator.admin.tick(60 * 60_000)).toBe(0);
  });

  it('schedules upcoming live events relative to the clock', async () => {
    const h = await startHarness();
    const event = h.emulator.admin.scheduleLive({ liveVideo: true });
    expect(Date.parse(event.starts_at as string)).toBeGreaterThan(h.clock.now());
  });
});
