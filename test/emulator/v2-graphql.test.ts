import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const b64 = (n: number) => Buffer.from(String(n)).toString('base64');

const POST_FIELDS = `id name tagline slug url votesCount commentsCount reviewsCount reviewsRating createdAt featuredAt
  website description isVoted isCollected thumbnail { type url videoUrl } media { type url videoUrl }
  makers { id name } user { id username } userId productLinks { type url } topics(first: 3) { edges { node { slug name } } }`;

describe('POST /v2/api/graphql', () => {
  it('serves posts as a connection of 2025-reference fields, string ids and UTC DateTimes', async () => {
    const h = await startHarness();
    const reply = await h.graphql(
      `{ posts(first: 3) { totalCount pageInfo { startCursor endCursor hasNextPage hasPreviousPage } edges { cursor node { ${POST_FIELDS} } } } }`,
    );
    expect(reply.status).toBe(200);
    const { posts } = reply.json().data;
    expect(posts.totalCount).toBe(3);
    expect(posts.edges.map((e: { cursor: string }) => e.cursor)).toEqual([b64(1), b64(2), b64(3)]);
    expect(posts.pageInfo).toEqual({
      startCursor: b64(1),
      endCursor: b64(3),
      hasNextPage: true,
      hasPreviousPage: false,
    });
    const node = posts.edges[0].node;
    expect(typeof node.id).toBe('string');
    expect(node.createdAt).toMatch(DATETIME);
    expect(node.thumbnail.type).toBe('image');
    expect(node.productLinks.length).toBeGreaterThan(0);
  });

  it('caps pages at 20 nodes and reports totalCount as the page size', async () => {
    const h = await startHarness();
    const { posts } = (await h.graphql('{ posts(first: 50) { totalCount nodes { id } } }')).json().data;
    expect(posts.nodes).toHaveLength(20);
    expect(posts.totalCount).toBe(20);
  });

  it('continues after a cursor, padded or not', async () => {
    const h = await startHarness();
    const q =
      'query ($after: String) { posts(first: 2, order: NEWEST, after: $after) { edges { cursor node { id } } } }';
    const first = (await h.graphql(q)).json().data.posts.edges;
    const next = (await h.graphql(q, { after: first[1].cursor })).json().data.posts.edges;
    expect(next[0].cursor).toBe(b64(3));
    const unpadded = (await h.graphql(q, { after: b64(2).replace(/=+$/, '') })).json().data.posts.edges;
    expect(unpadded.map((e: { node: { id: string } }) => e.node.id)).toEqual(
      next.map((e: { node: { id: string } }) => e.node.id),
    );
    const bad = (await h.graphql(q, { after: 'not a cursor!' })).json();
    expect(bad.errors[0].message).toContain('Invalid cursor');
  });

  it('pages backwards with last and before', async () => {
    const h = await startHarness();
    const q =
      'query ($before: String) { posts(last: 2, before: $before, order: NEWEST) { pageInfo { hasPreviousPage hasNextPage } edges { cursor } } }';
    const { posts } = (await h.graphql(q, { before: b64(6) })).json().data;
    expect(posts.edges.map((e: { cursor: string }) => e.cursor)).toEqual([b64(4), b64(5)]);
    expect(posts.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: true });
  });

  it('orders by NEWEST, VOTES, FEATURED_AT and filters featured, postedAfter, postedBefore and topic', async () => {
    const h = await startHarness();
    const nodes = async (args: string) =>
      (
        await h.graphql(
          `{ posts(first: 20, ${args}) { nodes { id createdAt featuredAt votesCount topics { nodes { slug } } } } }`,
        )
      ).json().data.posts.nodes;
    const newest = await nodes('order: NEWEST');
    expect(newest.map((p: { createdAt: string }) => p.createdAt)).toEqual(
      [...newest.map((p: { createdAt: string }) => p.createdAt)].sort().reverse(),
    );
    const votes = (await nodes('order: VOTES')).map((p: { votesCount: number }) => p.votesCount);
    expect(votes).toEqual([...votes].sort((a, b) => b - a));
    const featured = await nodes('order: FEATURED_AT, featured: true');
    expect(featured.every((p: { featuredAt: string | null }) => p.featuredAt !== null)).toBe(true);
    expect(
      (await nodes('featured: false')).every((p: { featuredAt: string | null }) => p.featuredAt === null),
    ).toBe(true);
    const cutoff = newest[5].createdAt;
    const after = await nodes(`order: NEWEST, postedAfter: "${cutoff}"`);
    expect(after).toHaveLength(5);
    const before = await nodes(`order: NEWEST, postedBefore: "${cutoff}"`);
    expect(before[0].id).toBe(newest[6].id);
    const slug = newest[0].topics.nodes[0].slug;
    const topical = await nodes(`topic: "${slug}"`);
    expect(
      topical.every((p: { topics: { nodes: { slug: string }[] } }) =>
        p.topics.nodes.some((t) => t.slug === slug),
      ),
    ).toBe(true);
  });

  it('serves the same posts V1 nests in comments, by id and by slug', async () => {
    const h = await startHarness();
    const comment = (await h.get('/v1/comments?per_page=1')).json().comments[0];
    const byId = (
      await h.graphql('query ($id: ID) { post(id: $id) { id name slug } }', { id: String(comment.post.id) })
    ).json().data.post;
    expect(byId).toEqual({ id: String(comment.post.id), name: comment.post.name, slug: comment.post.slug });
    const bySlug = (await h.graphql(`{ post(slug: "${comment.post.slug}") { id } }`)).json().data.post;
    expect(bySlug.id).toBe(String(comment.post.id));
    expect((await h.graphql('{ post(id: "999999") { id } }')).json().data.post).toBeNull();
    const added = h.emulator.admin.addPost({ name: 'Brand New', featured: true });
    expect(
      (await h.graphql(`{ post(id: "${added.v2_id}") { name featuredAt } }`)).json().data.post.name,
    ).toBe('Brand New');
  });

  it('serves collections, collection, comment, user, topics and viewer', async () => {
    const h = await startHarness();
    const data = (
      await h.graphql(`{
        collections(first: 2, featured: true, order: FEATURED_AT) { nodes { id name tagline featuredAt followersCount url user { id } posts(first: 2) { nodes { id } } } }
        collection(id: "1") { id name coverImage createdAt }
        comment(id: "30") { id body createdAt votesCount parentId url user { id } replies(first: 2) { nodes { id } } }
        user(id: "5") { id name username headline twitterUsername websiteUrl profileImage(size: 40) url isViewer isMaker madePosts(first: 1) { nodes { id } } }
        topics(first: 5, order: FOLLOWERS_COUNT) { totalCount nodes { id name slug postsCount } }
        viewer { user { id isViewer } }
      }`)
    ).json();
    expect(data.errors).toBeUndefined();
    const d = data.data;
    expect(d.collections.nodes).toHaveLength(2);
    expect(d.collections.nodes[0].featuredAt).toMatch(DATETIME);
    expect(d.collection.id).toBe('1');
    expect(d.comment.id).toBe('30');
    expect(d.user).toMatchObject({ id: '5', isViewer: false });
    expect(d.topics.totalCount).toBe(5);
    expect(d.viewer.user).toEqual({ id: '1', isViewer: true });
    const byUsername = (await h.graphql(`{ user(username: "${d.user.username}") { id } }`)).json().data.user;
    expect(byUsername.id).toBe('5');
  });

  it('answers standard GraphQL errors for invalid queries and 400 for a body that is not a GraphQL request', async () => {
    const h = await startHarness();
    const syntax = await h.graphql('{ posts(first: 1) { edges { node { id }');
    expect(syntax.status).toBe(200);
    expect(syntax.json().errors[0].message).toMatch(/Syntax Error/);
    const unknown = await h.graphql('{ posts { edges { node { goals } } } }');
    expect(unknown.json().errors[0]).toMatchObject({
      message: expect.stringContaining('goals'),
      locations: expect.any(Array),
    });
    const notJson = await h.call('POST', '/v2/api/graphql', { body: 'query=1' });
    expect(notJson.status).toBe(400);
    expect(notJson.json().errors[0].message).toMatch(/JSON/);
    const noQuery = await h.call('POST', '/v2/api/graphql', { body: { variables: {} } });
    expect(noQuery.status).toBe(400);
  });
});
