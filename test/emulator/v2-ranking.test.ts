import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const HOUR = 3_600_000;
const RANKED = `query ($since: DateTime, $after: String) {
  posts(first: 2, order: RANKING, postedAfter: $since, after: $after) {
    pageInfo { endCursor hasNextPage } edges { node { name votesCount } }
  }
}`;

describe('posts(order: RANKING, postedAfter)', () => {
  it('ranks the posts made after an instant by votes decayed by age, in pages', async () => {
    const h = await startHarness();
    const { admin } = h.emulator;
    admin.addPost({ name: 'before the day', votesCount: 1_000_000 });
    h.clock.advance(1000);
    const since = new Date(h.clock.now() - 1).toISOString();
    admin.addPost({ name: 'old and popular', votesCount: 90 });
    h.clock.advance(2 * HOUR);
    admin.addPost({ name: 'fresh', votesCount: 40 });
    admin.addPost({ name: 'fresh and tied', votesCount: 40 });
    admin.addPost({ name: 'fresh and quiet', votesCount: 10 });
    const page = async (after?: string) => (await h.graphql(RANKED, { since, after })).json().data.posts;

    // Scores: 90 / (2 h + 2)^1.5 = 11.25; 40 / 2^1.5 = 14.1 (a tie: the newer first); 10 / 2^1.5 = 3.5.
    const first = await page();
    expect(first.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      'fresh and tied',
      'fresh',
    ]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page(first.pageInfo.endCursor);
    expect(second.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      'old and popular',
      'fresh and quiet',
    ]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});
