import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

type V1Comment = Record<string, unknown> & { id: number; user?: Record<string, unknown> };

describe('real-world quirks mode', () => {
  it('adds unlisted fields and drops optional ones from older comments', async () => {
    const h = await startHarness({ quirks: true });
    const comments: V1Comment[] = (await h.get('/v1/comments?per_page=50')).json().comments;
    expect(
      comments.every((c) => 'maker' in c && 'hunter' in c && 'live_guest' in c && 'child_comments' in c),
    ).toBe(true);
    const old = comments.find((c) => c.id % 5 === 0)!;
    for (const key of ['url', 'subject_id', 'subject_type', 'sticky', 'votes', 'post'])
      expect(old).not.toHaveProperty(key);
    expect(old).toHaveProperty('body');
  });

  it("redacts other people's users and varies image maps and optional strings", async () => {
    const h = await startHarness({ quirks: true });
    const users = (await h.get('/v1/comments?per_page=50'))
      .json()
      .comments.map((c: V1Comment) => c.user)
      .filter(Boolean);
    const redacted = users.find((u: Record<string, unknown>) => u['id'] === 0);
    expect(redacted).toMatchObject({ name: '[REDACTED]', username: '[REDACTED]', website_url: null });
    const visible = users.filter((u: Record<string, unknown>) => u['id'] !== 0);
    const imageKeyCounts = new Set(
      visible.map((u: { image_url: object }) => Object.keys(u.image_url).length),
    );
    expect([...imageKeyCounts].some((n) => n === 30 || n === 1 || n === 0)).toBe(true);
    expect(imageKeyCounts.size).toBeGreaterThan(1);
  });

  it('redacts V2 users to id "0" except the viewer, and drops cursor padding', async () => {
    const h = await startHarness({ quirks: true });
    const data = (
      await h.graphql(
        '{ posts(first: 20) { edges { cursor node { user { id name url } } } } viewer { user { id name } } }',
      )
    ).json().data;
    const ids = data.posts.edges.map((e: { node: { user: { id: string } } }) => e.node.user.id);
    expect(ids).toContain('0');
    expect(
      data.posts.edges.find((e: { node: { user: { id: string } } }) => e.node.user.id === '0').node.user,
    ).toEqual({
      id: '0',
      name: '[REDACTED]',
      url: '[REDACTED]',
    });
    expect(data.viewer.user.id).toBe('1');
    expect(data.posts.edges[0].cursor).toBe('MQ');
  });

  it('wraps V2 auth and rate-limit errors in the non-standard errors list and shows a negative remaining', async () => {
    const h = await startHarness({ quirks: true, quotaComplexity: 10 });
    const unauthorized = await h.graphql('{ viewer { user { id } } }', undefined, 'wrong');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.json()).toEqual({
      data: null,
      errors: [{ error: 'unauthorized_oauth', error_description: expect.any(String) }],
    });
    const query = '{ posts(first: 5) { edges { node { id } } } }'; // 16 points
    const overdrawn = await h.graphql(query);
    expect(overdrawn.status).toBe(200);
    expect(overdrawn.headers['x-rate-limit-remaining']).toBe('-6');
    const limited = await h.graphql(query);
    expect(limited.status).toBe(429);
    expect(limited.json()).toEqual({
      data: null,
      errors: [
        {
          error: 'rate_limit_reached',
          error_description: expect.any(String),
          details: { limit: 10, remaining: -6, reset_in: 900 },
        },
      ],
    });
  });

  it('is off by default', async () => {
    const h = await startHarness();
    const comments: V1Comment[] = (await h.get('/v1/comments?per_page=50')).json().comments;
    expect(comments.some((c) => 'maker' in c)).toBe(false);
    expect(comments.every((c) => c.user && c.user['id'] !== 0)).toBe(true);
  });
});
