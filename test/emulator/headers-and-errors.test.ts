import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const STANDARD = {
  'x-frame-options': 'SAMEORIGIN',
  'x-xss-protection': '1; mode=block',
  'x-content-type-options': 'nosniff',
  'cache-control': 'max-age=0, private, must-revalidate',
  'content-type': 'application/json; charset=utf-8',
};

describe('headers and error shapes', () => {
  it('sends the standard, rate-limit and Content-Length headers on every kind of response', async () => {
    const h = await startHarness();
    const replies = [
      await h.get('/v1/comments'),
      await h.get('/v1/collections?per_page=99'),
      await h.get('/v1/live', { token: null }),
      await h.get('/v1/unknown'),
      await h.get('/v2/oauth/token'),
      await h.graphql('{ posts(first: 1) { edges { node { id } } } }'),
      await h.admin('GET', '/counts'),
    ];
    for (const reply of replies) {
      expect(reply.headers).toMatchObject(STANDARD);
      expect(Number(reply.headers['x-rate-limit-limit'])).toBeGreaterThan(0);
      expect(reply.headers['x-rate-limit-remaining']).toMatch(/^\d+$/);
      expect(reply.headers['x-rate-limit-reset']).toMatch(/^\d+$/);
      expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
    }
  });

  it('reports each class its own limit: 900 V1, 450 other V2, 6250 GraphQL complexity', async () => {
    const h = await startHarness();
    expect((await h.get('/v1/comments')).headers['x-rate-limit-limit']).toBe('900');
    expect((await h.get('/v2/oauth/token')).headers['x-rate-limit-limit']).toBe('450');
    const gql = await h.graphql('{ posts(first: 2) { edges { node { id } } } }');
    expect(gql.headers['x-rate-limit-limit']).toBe('6250');
    expect(Number(gql.headers['x-rate-limit-remaining'])).toBeLessThan(6250);
  });

  it('answers 401 unauthorized_oauth for a missing or unknown token', async () => {
    const h = await startHarness();
    for (const token of [null, 'stolen-token']) {
      for (const reply of [
        await h.get('/v1/comments', { token }),
        await h.graphql('{ viewer { user { id } } }', undefined, token ?? 'x'),
      ]) {
        expect(reply.status).toBe(401);
        expect(reply.json()).toMatchObject({
          error: 'unauthorized_oauth',
          error_description: expect.any(String),
        });
      }
    }
  });

  it('answers 404 not_found for an unknown path, also under /v1 and /v2', async () => {
    const h = await startHarness();
    for (const path of ['/v1/posts', '/v2/api/rest', '/']) {
      const reply = await h.get(path);
      expect(reply.status).toBe(404);
      expect(reply.json()).toMatchObject({ error: 'not_found' });
    }
    expect((await h.call('POST', '/v1/comments', { body: {} })).status).toBe(404);
  });

  it('gives collections a strong ETag and notifications a weak one, and answers 304 to If-None-Match', async () => {
    const h = await startHarness();
    const collections = await h.get('/v1/collections');
    expect(collections.headers['etag']).toMatch(/^"[0-9a-f]+"$/);
    const notifications = await h.get('/v1/notifications');
    expect(notifications.headers['etag']).toMatch(/^W\/"[0-9a-f]+"$/);
    for (const [path, etag] of [
      ['/v1/collections', collections.headers['etag']!],
      ['/v1/notifications', notifications.headers['etag']!],
    ] as const) {
      const cached = await h.get(path, { headers: { 'if-none-match': etag } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers['etag']).toBe(etag);
      expect(cached.headers['x-rate-limit-remaining']).toMatch(/^\d+$/);
    }
  });

  it('changes the ETag when the content changes', async () => {
    const h = await startHarness();
    const before = await h.get('/v1/comments');
    expect(
      (await h.get('/v1/comments', { headers: { 'if-none-match': before.headers['etag']! } })).status,
    ).toBe(304);
    h.emulator.admin.addComment({ body: 'fresh' });
    const after = await h.get('/v1/comments', { headers: { 'if-none-match': before.headers['etag']! } });
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    expect(after.json().comments[0].body).toBe('fresh');
  });
});
