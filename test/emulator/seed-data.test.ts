import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const everything = async (h: Awaited<ReturnType<typeof startHarness>>) => [
  (await h.get('/v1/comments?per_page=50')).text,
  (await h.get('/v1/collections?per_page=50')).text,
  (await h.get('/v1/live?per_page=50')).text,
  (await h.get('/v1/notifications?per_page=50&search[type]=all')).text,
  (await h.graphql('{ posts(first: 20) { nodes { id name tagline createdAt } } }')).text,
];

describe('seed data', () => {
  it('is identical for the same seed and different for another', async () => {
    const a = await everything(await startHarness({ seed: 7 }));
    const b = await everything(await startHarness({ seed: 7 }));
    const c = await everything(await startHarness({ seed: 8 }));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('holds at least 100 of each record kind and 30 users', async () => {
    const h = await startHarness();
    const counts = h.emulator.admin.counts();
    expect(counts.posts).toBeGreaterThanOrEqual(100);
    expect(counts.comments).toBeGreaterThanOrEqual(100);
    expect(counts.collections).toBeGreaterThanOrEqual(100);
    expect(counts.liveEvents).toBeGreaterThanOrEqual(100);
    expect(counts.users).toBeGreaterThanOrEqual(30);
    expect(counts.featuredCollections).toBeGreaterThan(0);
    expect(counts.featuredCollections).toBeLessThan(counts.collections);
  });

  it('mixes hostile content into bodies: mentions, markup, RTL, emoji and bodies over 5,000 characters', async () => {
    const h = await startHarness();
    const bodies: string[] = [];
    for (let page = 1; page <= 7; page++) {
      const { comments } = (await h.get(`/v1/comments?per_page=50&page=${page}`)).json();
      bodies.push(...comments.map((c: { body: string }) => c.body));
    }
    const all = bodies.join('\n');
    for (const needle of ['<!channel>', '<!here>', '@everyone', '<@U123ABC>', '**', '🚀'])
      expect(all).toContain(needle);
    expect(/[\u0590-\u05FF\u0600-\u06FF]/.test(all)).toBe(true);
    expect(bodies.some((b) => b.length > 5000)).toBe(true);
  });

  it('has past, upcoming, undated and on-camera live events and sticky comments in threads', async () => {
    const h = await startHarness();
    const events = [];
    for (let offset = 0; offset < 150; offset += 50) {
      events.push(...(await h.get(`/v1/live?per_page=50&offset=${offset}`)).json().live_events);
    }
    const now = h.clock.now();
    expect(events.some((e) => e.starts_at && Date.parse(e.starts_at) < now)).toBe(true);
    expect(events.some((e) => e.starts_at && Date.parse(e.starts_at) > now)).toBe(true);
    expect(events.some((e) => e.starts_at === null)).toBe(true);
    expect(events.some((e) => e.live_video)).toBe(true);
    const comments = [];
    for (let page = 1; page <= 7; page++)
      comments.push(...(await h.get(`/v1/comments?per_page=50&page=${page}`)).json().comments);
    expect(comments.some((c) => c.sticky)).toBe(true);
    expect(comments.some((c) => c.parent_comment_id !== null)).toBe(true);
    expect(comments.some((c) => c.child_comments_count > 0)).toBe(true);
  });
});
