import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

describe('quotas', () => {
  it('counts V1 requests down and refuses with 429 rate_limit_reached until the window resets', async () => {
    const h = await startHarness({ quotaV1: 3, windowSeconds: 60 });
    const remaining = [];
    for (let i = 0; i < 3; i++)
      remaining.push((await h.get('/v1/comments?per_page=1')).headers['x-rate-limit-remaining']);
    expect(remaining).toEqual(['2', '1', '0']);
    h.clock.advance(20_000);
    const refused = await h.get('/v1/live');
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({
      error: 'rate_limit_reached',
      error_description: expect.any(String),
      details: { limit: 3, remaining: 0, reset_in: 40 },
    });
    expect(refused.headers['x-rate-limit-reset']).toBe('40');
    h.clock.advance(40_000);
    const again = await h.get('/v1/live');
    expect(again.status).toBe(200);
    expect(again.headers['x-rate-limit-remaining']).toBe('2');
  });

  it('keeps a separate budget per application and per class', async () => {
    const h = await startHarness({ tokens: ['a', 'b'], quotaV1: 1, quotaV2Requests: 1 });
    expect((await h.get('/v1/comments', { token: 'a' })).status).toBe(200);
    expect((await h.get('/v1/comments', { token: 'a' })).status).toBe(429);
    expect((await h.get('/v1/comments', { token: 'b' })).status).toBe(200);
    expect((await h.get('/v2/oauth/token', { token: 'a' })).json()).toEqual({ posts: [] });
    expect((await h.get('/v2/oauth/token', { token: 'a' })).status).toBe(429);
    expect((await h.graphql('{ viewer { user { id } } }', undefined, 'a')).status).toBe(200);
  });

  it('charges GraphQL the query complexity, connections multiplied by first', async () => {
    const h = await startHarness();
    const small = await h.graphql('{ posts(first: 1) { edges { node { id } } } }');
    const afterSmall = 6250 - Number(small.headers['x-rate-limit-remaining']);
    // posts(1) + edges(1) + node(1) + id(1) = 1 + 1*(1 + 1 + 1) = 4
    expect(afterSmall).toBe(4);
    const big = await h.graphql('query ($n: Int) { posts(first: $n) { edges { node { id name } } } }', {
      n: 10,
    });
    expect(6250 - Number(big.headers['x-rate-limit-remaining'])).toBe(4 + 1 + 10 * 4);
    expect(h.emulator.admin.stats().quotaUsed.complexity).toBe(4 + 41);
  });

  it('refuses a query over the max complexity with the live message and does not charge it', async () => {
    const h = await startHarness({ maxComplexity: 50 });
    const reply = await h.graphql('{ posts(first: 20) { edges { node { id name tagline } } } }');
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({
      errors: [{ message: 'Query has complexity of 101, which exceeds max complexity of 50' }],
    });
    expect(reply.headers['x-rate-limit-remaining']).toBe('6250');
  });

  it('refuses GraphQL with 429 once the complexity budget is spent', async () => {
    const h = await startHarness({ quotaComplexity: 10 });
    const query = '{ posts(first: 2) { edges { node { id } } } }'; // 1 + 2*3 = 7
    expect((await h.graphql(query)).status).toBe(200);
    expect((await h.graphql(query)).status).toBe(200); // 7 remaining > 0: runs, overdraws
    const refused = await h.graphql(query);
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({
      error: 'rate_limit_reached',
      details: { limit: 10, remaining: 0 },
    });
    expect(refused.headers['x-rate-limit-remaining']).toBe('0');
  });

  it('makes every budget whole again on admin reset', async () => {
    const h = await startHarness({ quotaV1: 1 });
    await h.get('/v1/comments');
    expect((await h.get('/v1/comments')).status).toBe(429);
    expect((await h.admin('POST', '/quotas/reset')).status).toBe(200);
    expect((await h.get('/v1/comments')).status).toBe(200);
  });
});
