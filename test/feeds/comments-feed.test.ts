import { describe, expect, it } from 'vitest';
import { createCommentsFeed } from '../../src/feeds/comments-feed.js';
import { feedOnEmulator, idsOf, provenanceOf, skippedRecords } from '../support/feed-emulator.js';

const MINUTE = 60_000;
const commentsFeed = feedOnEmulator(createCommentsFeed, { at: '2026-11-23T15:00:00Z' });

describe('the comments feed', () => {
  it('starts from now: the first poll yields nothing of what the directory already holds', async () => {
    const { emulator, feed } = await commentsFeed();
    expect(emulator.admin.counts().comments).toBeGreaterThan(0);
    const { items } = await feed.poll(undefined);
    expect(items).toEqual([]);
  });

  it('yields new comments on any post in the order they were written, each once', async () => {
    const { clock, emulator, feed } = await commentsFeed();
    const seeded = await feed.poll(undefined);
    const one = emulator.admin.addPost({ name: 'One' });
    const other = emulator.admin.addPost({ name: 'Other' });
    const written = [
      emulator.admin.addComment({ postId: one.id, body: 'first' }),
      emulator.admin.addComment({ postId: other.id, body: 'second' }),
      emulator.admin.addComment({ postId: one.id, body: 'third' }),
    ].map((c) => String(c.id));
    clock.advance(MINUTE);
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual(written);
    expect(provenanceOf(poll.items)).toEqual(written.map(() => ['comments', 'new', clock.now()]));

    const later = String(emulator.admin.addComment({ body: 'later' }).id);
    clock.advance(MINUTE);
    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).toEqual([later]);
    const quiet = await feed.poll(next.nextState);
    expect(quiet.items).toEqual([]);
  });

  it('catches up on more new comments than one page holds', async () => {
    const { clock, emulator, feed } = await commentsFeed();
    const seeded = await feed.poll(undefined);
    const written = [];
    for (let i = 0; i < 120; i += 1)
      written.push(String(emulator.admin.addComment({ body: `burst ${i}` }).id));
    clock.advance(MINUTE);
    const { items } = await feed.poll(seeded.nextState);
    expect(idsOf(items)).toEqual(written);
  });

  it('skips and counts a malformed comment, keeps its neighbours and never repeats them', async () => {
    const { clock, clientEvents, emulator, feed } = await commentsFeed();
    const seeded = await feed.poll(undefined);
    // The emulator breaks the first record of the next answer: the oldest new comment.
    emulator.admin.addComment({ body: 'broken on the wire' });
    const neighbours = [
      emulator.admin.addComment({ body: 'good one' }),
      emulator.admin.addComment({ body: 'good two' }),
    ].map((c) => String(c.id));
    emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'bad-record' });
    clock.advance(MINUTE);
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual(neighbours);
    expect(skippedRecords(clientEvents)).toBe(1);

    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).not.toContain(neighbours[0]);
    expect(idsOf(next.items)).not.toContain(neighbours[1]);
  });

  it('recent(): the newest comments first, at most the limit, without moving the cursor', async () => {
    const { clock, emulator, feed } = await commentsFeed();
    const seeded = await feed.poll(undefined);
    const written = [0, 1, 2].map((i) => String(emulator.admin.addComment({ body: `recent ${i}` }).id));
    clock.advance(MINUTE);
    const recent = await feed.recent({ limit: 2 });
    expect(idsOf(recent)).toEqual([written[2], written[1]]);
    expect(provenanceOf(recent)).toEqual([
      ['comments', 'new', clock.now()],
      ['comments', 'new', clock.now()],
    ]);

    const { items } = await feed.poll(seeded.nextState);
    expect(idsOf(items)).toEqual(written);
  });

  it('recent(): narrows to a post given by id upstream; a slug is left to the caller', async () => {
    const { emulator, feed } = await commentsFeed();
    const post = emulator.admin.addPost({ name: 'Quiet post' });
    expect(post['slug']).toEqual(expect.any(String));
    const onPost = String(emulator.admin.addComment({ postId: post.id, body: 'on the quiet post' }).id);
    const elsewhere = [0, 1, 2].map((i) => String(emulator.admin.addComment({ body: `elsewhere ${i}` }).id));

    expect(idsOf(await feed.recent({ limit: 2, post: String(post.id) }))).toEqual([onPost]);
    expect(idsOf(await feed.recent({ limit: 2, post: String(post['slug']) }))).toEqual([
      elsewhere[2],
      elsewhere[1],
    ]);
  });
});
