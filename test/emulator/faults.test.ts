import { createHash } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

describe('injected faults', () => {
  it('answers an injected status on the next N requests of a route, then recovers', async () => {
    const h = await startHarness();
    const added = await h.admin('POST', '/faults', {
      route: '/v1/comments',
      count: 2,
      kind: 'status',
      status: 502,
    });
    expect(added.status).toBe(201);
    expect((await h.get('/v1/comments')).status).toBe(502);
    expect((await h.get('/v1/live')).status).toBe(200); // another route is untouched
    const second = await h.get('/v1/comments');
    expect(second.status).toBe(502);
    expect(second.json()).toMatchObject({ error: 'server_error' });
    expect(second.headers['x-rate-limit-limit']).toBe('900');
    expect((await h.get('/v1/comments')).status).toBe(200);
  });

  it('serves an HTML challenge page with the chosen status', async () => {
    const h = await startHarness();
    h.emulator.admin.injectFault({ route: '*', count: 1, kind: 'html', status: 403 });
    const reply = await h.graphql('{ viewer { user { id } } }');
    expect(reply.status).toBe(403);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.text).toContain('<html>');
  });

  it('cuts the JSON body in half with malformed-json', async () => {
    const h = await startHarness();
    h.emulator.admin.injectFault({ route: '/v1/collections', count: 1, kind: 'malformed-json' });
    const reply = await h.get('/v1/collections');
    expect(reply.status).toBe(200);
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.text));
    expect(() => JSON.parse(reply.text)).toThrow();
  });

  it('breaks the first record against its schema with bad-record, V1 and V2', async () => {
    const h = await startHarness();
    h.emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'bad-record' });
    const v1 = (await h.get('/v1/comments?per_page=3')).json().comments;
    expect(v1[0].id).toBe('not-an-id');
    expect(typeof v1[0].body).toBe('number');
    expect(typeof v1[1].id).toBe('number');
    h.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'bad-record' });
    const v2 = (await h.graphql('{ posts(first: 2) { edges { node { id name } } } }')).json().data.posts
      .edges;
    expect(v2[0].node).toEqual({ id: 'not-an-id', name: 12345 });
  });

  it('tags a bad-record answer with its own ETag, so a client caching it still gets the intact page', async () => {
    const h = await startHarness();
    const intact = await h.get('/v1/comments?per_page=3');
    h.emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'bad-record' });
    const broken = await h.get('/v1/comments?per_page=3');
    expect(broken.json().comments[0].id).toBe('not-an-id');
    expect(broken.headers['etag']).toBe(`"${createHash('sha1').update(broken.text).digest('hex')}"`);
    expect(broken.headers['etag']).not.toBe(intact.headers['etag']);
    // Revalidating the broken copy must not be told it is current.
    const next = await h.get('/v1/comments?per_page=3', {
      headers: { 'if-none-match': broken.headers['etag'] ?? '' },
    });
    expect(next.status).toBe(200);
    expect(next.text).toBe(intact.text);
    expect(next.headers['etag']).toBe(intact.headers['etag']);
  });

  it('drops the connection without an answer', async () => {
    const h = await startHarness();
    h.emulator.admin.injectFault({ route: '/v1/live', count: 1, kind: 'drop' });
    await expect(
      request(`${h.emulator.url}/v1/live`, { headers: { authorization: 'Bearer dev-token' } }),
    ).rejects.toThrow();
    expect((await h.get('/v1/live')).status).toBe(200);
    expect(h.emulator.admin.stats().requests.byStatus['0']).toBe(1);
  });

  it('delays an answer while other requests are served, then answers normally', async () => {
    const h = await startHarness();
    h.emulator.admin.injectFault({ route: '/v1/live', count: 1, kind: 'delay', delayMs: 400 });
    let settled = false;
    const delayed = h.get('/v1/live').then((reply) => {
      settled = true;
      return reply;
    });
    // The delay is the one real timer here: a quick request overtakes it.
    expect((await h.get('/v1/comments?per_page=1')).status).toBe(200);
    expect(settled).toBe(false);
    expect((await delayed).status).toBe(200);
  });

  it('serves one request in quirks mode with the quirks fault', async () => {
    const h = await startHarness();
    h.emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'quirks' });
    const quirky = (await h.get('/v1/comments?per_page=50')).json().comments;
    expect(quirky.some((c: { user?: { id: number } }) => c.user?.id === 0)).toBe(true);
    const plain = (await h.get('/v1/comments?per_page=50')).json().comments;
    expect(plain.some((c: { user?: { id: number } }) => c.user?.id === 0)).toBe(false);
  });

  it('lists and clears pending faults, and rejects an invalid one with 400', async () => {
    const h = await startHarness();
    await h.admin('POST', '/faults', { route: '/v1/live', count: 3, kind: 'status' });
    expect((await h.admin('GET', '/faults')).json().faults).toEqual([
      { route: '/v1/live', count: 3, kind: 'status', status: 503 },
    ]);
    await h.admin('DELETE', '/faults');
    expect((await h.get('/v1/live')).status).toBe(200);
    const bad = await h.admin('POST', '/faults', { route: '/v1/live', count: 0, kind: 'explode' });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toBe('invalid_parameter');
  });
});
