import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

describe('/v1/notifications', () => {
  it("lists the token user's Post notifications by default and every type with search[type]=all", async () => {
    const h = await startHarness();
    const posts = (await h.get('/v1/notifications?per_page=50')).json().notifications;
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((n: { reference_type: string }) => n.reference_type === 'Post')).toBe(true);
    h.emulator.admin.addNotification('dev-token', {
      type: 'Comment',
      sentence: 'Someone replied <!channel>',
    });
    const all = (await h.get('/v1/notifications?search[type]=all&per_page=50')).json().notifications;
    expect(all.length).toBeGreaterThan(posts.length);
    expect(all[0]).toMatchObject({
      reference_type: 'Comment',
      sentence: 'Someone replied <!channel>',
      seen: false,
    });
  });

  it('keeps each application to its own user', async () => {
    const h = await startHarness({ tokens: ['app-a', 'app-b'] });
    const mine = h.emulator.admin.addNotification('app-b', { type: 'User' });
    const a = (await h.get('/v1/notifications?search[type]=all&per_page=50', { token: 'app-a' })).json()
      .notifications;
    const b = (await h.get('/v1/notifications?search[type]=all&per_page=50', { token: 'app-b' })).json()
      .notifications;
    expect(a.map((n: { id: number }) => n.id)).not.toContain(mine.id);
    expect(b.map((n: { id: number }) => n.id)).toContain(mine.id);
  });

  it('DELETE clears the count and answers an empty list with a weak ETag', async () => {
    const h = await startHarness();
    const cleared = await h.call('DELETE', '/v1/notifications', { body: {} });
    expect(cleared.status).toBe(200);
    expect(cleared.json()).toEqual({ notifications: [] });
    expect(cleared.headers['etag']).toMatch(/^W\/"/);
    expect((await h.get('/v1/notifications?search[type]=all')).json()).toEqual({ notifications: [] });
    h.emulator.admin.addNotification('dev-token');
    h.emulator.admin.addNotification('dev-token', { type: 'Post' });
    expect(
      (await h.get('/v1/notifications?search[type]=all')).json().notifications.length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('rejects per_page above 50', async () => {
    const h = await startHarness();
    expect((await h.get('/v1/notifications?per_page=51')).status).toBe(400);
  });
});
