import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { startHarness } from '../support/emulator-harness.js';

describe('admin API under /__admin/', () => {
  it('adds a comment that the next V1 read returns first', async () => {
    const h = await startHarness();
    const latest = h.emulator.admin.latestCommentId();
    const created = await h.admin('POST', '/comments', { postId: 4, body: '<!here> new', userId: 2 });
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ id: latest + 1, post_id: 4, user_id: 2, body: '<!here> new' });
    const newest = (await h.get(`/v1/comments?newer=${latest}`)).json().comments;
    expect(newest.map((c: { id: number }) => c.id)).toEqual([latest + 1]);
  });

  it('adds posts, collections, live events and notifications, and features a collection', async () => {
    const h = await startHarness();
    const post = (await h.admin('POST', '/posts', { name: 'Admin Post', featured: true })).json();
    expect(post).toMatchObject({ name: 'Admin Post', featured: true, v2_id: String(post.id) });
    const collection = (await h.admin('POST', '/collections', { name: 'Admin picks' })).json();
    expect(collection.featured_at).toBeNull();
    h.clock.advance(1000);
    const featured = await h.admin('POST', `/collections/${collection.id}/feature`);
    expect(featured.json().featured_at).toMatch(/-08:00$/);
    const live = (await h.admin('POST', '/live', { name: 'Undated', startsAt: null })).json();
    expect(live).toMatchObject({ name: 'Undated', starts_at: null });
    const notification = await h.admin('POST', '/notifications', { token: 'dev-token', type: 'Post' });
    expect(notification.status).toBe(201);
    expect((await h.get('/v1/notifications')).json().notifications[0].id).toBe(notification.json().id);
    expect((await h.admin('GET', '/counts')).json()).toMatchObject({
      posts: 121,
      collections: 111,
      liveEvents: 111,
    });
  });

  it('answers 404 for an unknown record or admin route and 400 for bad input', async () => {
    const h = await startHarness();
    expect((await h.admin('POST', '/collections/99999/feature')).status).toBe(404);
    expect((await h.admin('POST', '/comments', { postId: 99999 })).json().error).toBe('not_found');
    expect((await h.admin('POST', '/notifications', { token: 'nobody' })).status).toBe(404);
    expect((await h.admin('GET', '/nothing-here')).status).toBe(404);
    expect((await h.admin('POST', '/clock/advance', { ms: -5 })).status).toBe(400);
    expect((await h.call('POST', '/__admin/comments', { token: null, body: '{oops' })).status).toBe(400);
    const typo = await h.admin('POST', '/collections', { featured_at: 'now' });
    expect(typo.status).toBe(400);
    expect(typo.json().error_description).toContain('featured_at');
    expect((await h.admin('POST', '/comments', { postId: '4' })).json().error_description).toContain(
      'postId',
    );
    expect((await h.admin('POST', '/live', { startsAt: 'soon' })).status).toBe(400);
  });

  it('advances a manual clock and refuses to move the system clock', async () => {
    const h = await startHarness();
    const before = h.clock.now();
    const moved = await h.admin('POST', '/clock/advance', { ms: 90_000 });
    expect(moved.json().now).toBe(before + 90_000);
    expect(h.clock.now()).toBe(before + 90_000);
    const real = await startEmulator();
    try {
      const response = await fetch(`${real.url}/__admin/clock/advance`, {
        method: 'POST',
        body: JSON.stringify({ ms: 1 }),
      });
      expect(response.status).toBe(409);
    } finally {
      await real.close();
    }
  });

  it('counts API requests by route and status and the quota they used, and resets them', async () => {
    const h = await startHarness();
    await h.get('/v1/comments');
    await h.get('/v1/comments?per_page=99');
    await h.get('/v2/oauth/token');
    await h.graphql('{ viewer { user { id } } }');
    await h.admin('GET', '/counts');
    const stats = (await h.admin('GET', '/stats')).json();
    expect(stats).toEqual({
      requests: {
        total: 4,
        byRoute: { '/v1/comments': 2, '/v2/oauth/token': 1, '/v2/api/graphql': 1 },
        byStatus: { '200': 3, '400': 1 },
      },
      quotaUsed: { v1: 2, v2Requests: 1, complexity: 3 }, // viewer + user + id
    });
    await h.admin('POST', '/stats/reset');
    expect(h.emulator.admin.stats()).toEqual({
      requests: { total: 0, byRoute: {}, byStatus: {} },
      quotaUsed: { v1: 0, v2Requests: 0, complexity: 0 },
    });
  });

  it('is never reachable under /v1 or /v2', async () => {
    const h = await startHarness();
    expect((await h.get('/v1/__admin/counts')).status).toBe(404);
    expect((await h.get('/v2/__admin/counts')).status).toBe(404);
  });
});
