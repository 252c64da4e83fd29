import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const NEWEST_POSTS = 'query { posts(first: 10, order: NEWEST) { nodes { id votesCount } } }';

async function newestVotes(h: Awaited<ReturnType<typeof startHarness>>): Promise<Map<string, number>> {
  const nodes = (await h.graphql(NEWEST_POSTS)).json().data.posts.nodes as {
    id: string;
    votesCount: number;
  }[];
  return new Map(nodes.map((n) => [n.id, n.votesCount]));
}

describe('activity churn', () => {
  it('adds votes to recent posts, seen the same through V2 and on V1 comments', async () => {
    const h = await startHarness({ activityPerMinute: 30 });
    const before = await newestVotes(h);
    h.emulator.admin.tick(20_000);
    const after = await newestVotes(h);
    const grown = [...before].filter(([id, votes]) => (after.get(id) ?? votes) > votes);
    expect(grown.length).toBeGreaterThan(0);
    // V1 nests the same post record in its comments: a changed vote count shows there too.
    const comments = (await h.get('/v1/comments?per_page=50')).json().comments as {
      post: { id: number; votes_count: number };
    }[];
    for (const comment of comments) {
      const v2 = after.get(String(comment.post.id));
      if (v2 !== undefined) expect(comment.post.votes_count).toBe(v2);
    }
  });

  it('removes now and then a record listed for a while, and never one just created', async () => {
    const h = await startHarness({ activityPerMinute: 60 });
    const start = h.emulator.admin.counts();
    h.emulator.admin.tick(60 * 60_000);
    const { removed } = h.emulator.admin.counts();
    expect(removed.posts + removed.comments + removed.liveEvents).toBeGreaterThan(start.removed.comments);
    // The newest records (under five minutes old) are all still there.
    const newest = h.emulator.admin.latestPostId();
    const found = (await h.graphql(`query { post(id: "${newest}") { id } }`)).json().data.post;
    expect(found).toEqual({ id: String(newest) });
  });

  it('answers a removed post as not found on V2', async () => {
    const h = await startHarness();
    const post = h.emulator.admin.latestPostId();
    h.emulator.admin.removePost(post);
    const answer = (await h.graphql(`query { post(id: "${post}") { id } }`)).json();
    expect(answer.data.post).toBeNull();
    expect(h.emulator.admin.counts().removed.posts).toBe(1);
  });
});

describe('the admin API for churn', () => {
  it('adds votes and removes records over HTTP, answering 404 for one that is gone', async () => {
    const h = await startHarness();
    const post = h.emulator.admin.addPost({ name: 'Admin Widget', votesCount: 10 });
    expect((await h.admin('POST', `/posts/${post.id}/votes`, { votes: 5 })).status).toBe(200);
    const votes = (await h.graphql(`query { post(id: "${post.id}") { votesCount } }`)).json().data.post;
    expect(votes).toEqual({ votesCount: 15 });
    expect((await h.admin('DELETE', `/posts/${post.id}`)).status).toBe(200);
    expect((await h.admin('DELETE', `/posts/${post.id}`)).status).toBe(404);
    expect((await h.admin('POST', `/posts/${post.id}/votes`, { votes: -1 })).status).toBe(400);
  });
});
