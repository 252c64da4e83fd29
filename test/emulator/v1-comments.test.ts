import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const ids = (body: { comments: { id: number }[] }) => body.comments.map((c) => c.id);
const V1_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

describe('GET /v1/comments', () => {
  it('lists the newest 20 comments by default with every spec field, nested post and user', async () => {
    const h = await startHarness();
    const reply = await h.get('/v1/comments');
    expect(reply.status).toBe(200);
    const { comments } = reply.json();
    expect(comments).toHaveLength(20);
    expect(ids({ comments })).toEqual([...ids({ comments })].sort((a, b) => b - a));
    const comment = comments[0];
    for (const key of [
      'id',
      'body',
      'created_at',
      'parent_comment_id',
      'user_id',
      'subject_id',
      'subject_type',
      'child_comments_count',
      'url',
      'post_id',
      'sticky',
      'votes',
      'post',
      'user',
    ]) {
      expect(comment).toHaveProperty(key);
    }
    expect(comment.created_at).toMatch(V1_TS);
    expect(comment.subject_type).toBe('Post');
    expect(comment.post.id).toBe(comment.post_id);
    expect(comment.post.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(comment.post.discussion_url).toContain('utm_campaign=');
    expect(comment.post.screenshot_url).toHaveProperty('850px');
    expect(comment.post.thumbnail).toMatchObject({ media_type: 'image', metadata: {} });
    expect(comment.user.id).toBe(comment.user_id);
    expect(Object.keys(comment.user.image_url)).toHaveLength(30);
  });

  it('pages with page from 1 and per_page up to 50', async () => {
    const h = await startHarness();
    const first = (await h.get('/v1/comments?per_page=50')).json();
    const second = (await h.get('/v1/comments?per_page=50&page=2')).json();
    expect(first.comments).toHaveLength(50);
    expect(ids(second)[0]).toBe(ids(first)[49]! - 1);
  });

  it('walks an older cursor nearest-first and applies sort_by afterwards', async () => {
    const h = await startHarness();
    const older = (await h.get('/v1/comments?older=100&per_page=5&sort_by=id&order=asc')).json();
    expect(ids(older)).toEqual([95, 96, 97, 98, 99]);
    const newer = (await h.get('/v1/comments?newer=100&per_page=5')).json();
    expect(ids(newer)).toEqual([105, 104, 103, 102, 101]);
    const both = (await h.get('/v1/comments?newer=10&older=14&order=asc')).json();
    expect(ids(both)).toEqual([11, 12, 13]);
  });

  it('offsets within a cursor range with page', async () => {
    const h = await startHarness();
    const second = (await h.get('/v1/comments?older=100&per_page=5&page=2')).json();
    expect(ids(second)).toEqual([94, 93, 92, 91, 90]);
  });

  it('sorts by created_at and updated_at in either order', async () => {
    const h = await startHarness();
    const byCreated = (await h.get('/v1/comments?sort_by=created_at&order=asc&per_page=10')).json().comments;
    const created = byCreated.map((c: { created_at: string }) => Date.parse(c.created_at));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    const byUpdated = await h.get('/v1/comments?sort_by=updated_at&order=desc');
    expect(byUpdated.status).toBe(200);
  });

  it('filters by search[user_id] without nesting the user', async () => {
    const h = await startHarness();
    const { comments } = (await h.get('/v1/comments?search[user_id]=3&per_page=50')).json();
    expect(comments.length).toBeGreaterThan(0);
    for (const c of comments) {
      expect(c.user_id).toBe(3);
      expect(c).not.toHaveProperty('user');
      expect(c).toHaveProperty('post');
    }
  });

  it('filters by search[post_id] without nesting the post', async () => {
    const h = await startHarness();
    const added = h.emulator.admin.addComment({ postId: 7, body: 'hello' });
    const { comments } = (await h.get('/v1/comments?search%5Bpost_id%5D=7')).json();
    expect(ids({ comments })).toContain(added.id);
    for (const c of comments) {
      expect(c.post_id).toBe(7);
      expect(c).not.toHaveProperty('post');
      expect(c).toHaveProperty('user');
    }
  });

  it('holds threads and sticky comments', async () => {
    const h = await startHarness();
    const parent = h.emulator.admin.addComment({ postId: 3, sticky: true });
    const reply = h.emulator.admin.addComment({ parentCommentId: parent.id });
    const { comments } = (await h.get('/v1/comments?search[post_id]=3&per_page=50')).json();
    const byId = new Map(comments.map((c: { id: number }) => [c.id, c]));
    expect(byId.get(parent.id)).toMatchObject({
      sticky: true,
      child_comments_count: 1,
      parent_comment_id: null,
    });
    expect(byId.get(reply.id)).toMatchObject({ parent_comment_id: parent.id, post_id: 3 });
  });

  it.each([
    ['per_page=51', 'per_page'],
    ['per_page=0', 'per_page'],
    ['page=0', 'page'],
    ['sort_by=votes', 'sort_by'],
    ['order=up', 'order'],
    ['older=abc', 'older'],
    ['newer=-1', 'newer'],
    ['search[user_id]=x', 'search[user_id]'],
  ])('answers 400 invalid_parameter naming the parameter for %s', async (query, name) => {
    const h = await startHarness();
    const reply = await h.get(`/v1/comments?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.json().error).toBe('invalid_parameter');
    expect(reply.json().error_description).toContain(name);
  });
});
