import { describe, expect, it } from 'vitest';
import { createPostsFeed } from '../../src/feeds/posts-feed.js';
import { feedOnEmulator, idsOf, provenanceOf, skippedRecords } from '../support/feed-emulator.js';

const MINUTE = 60_000;
const postsFeed = feedOnEmulator(createPostsFeed, { at: '2026-11-23T15:00:00Z' });

describe('the posts feed', () => {
  it('starts from now: the first poll yields nothing of what the directory already holds', async () => {
    const { emulator, feed } = await postsFeed();
    expect(emulator.admin.counts().posts).toBeGreaterThan(0);
    const { items } = await feed.poll(undefined);
    expect(items).toEqual([]);
  });

  it('yields new posts oldest first, each once, as `new` items discovered at the poll', async () => {
    const { clock, emulator, feed } = await postsFeed();
    const seeded = await feed.poll(undefined);
    const first = emulator.admin.addPost({ name: 'First launch' });
    clock.advance(MINUTE);
    const second = emulator.admin.addPost({ name: 'Second launch' });
    clock.advance(MINUTE);
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual([first.v2_id, second.v2_id]);
    expect(provenanceOf(poll.items)).toEqual([
      ['posts', 'new', clock.now()],
      ['posts', 'new', clock.now()],
    ]);

    const third = emulator.admin.addPost({ name: 'Third launch' });
    clock.advance(MINUTE);
    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).toEqual([third.v2_id]);
    const quiet = await feed.poll(next.nextState);
    expect(quiet.items).toEqual([]);
  });

  it('catches up on more new posts than one page holds', async () => {
    const { clock, emulator, feed } = await postsFeed();
    const seeded = await feed.poll(undefined);
    const added = [];
    for (let i = 0; i < 25; i += 1) {
      added.push(emulator.admin.addPost({ name: `Burst ${i}` }).v2_id);
      clock.advance(1000);
    }
    const { items } = await feed.poll(seeded.nextState);
    expect(idsOf(items)).toEqual(added);
  });

  it('spends one page on a poll whose new posts arrived in creation order, even when it finds some', async () => {
    const { clock, clientEvents, emulator, feed } = await postsFeed();
    const seeded = await feed.poll(undefined);
    const pages = () =>
      clientEvents.filter((e) => e.type === 'request' && e.route === '/v2/api/graphql').length;
    let state = seeded.nextState;
    for (const name of ['One', 'Two', 'Three']) {
      const post = emulator.admin.addPost({ name });
      clock.advance(MINUTE);
      const before = pages();
      const poll = await feed.poll(state);
      expect(idsOf(poll.items)).toEqual([post.v2_id]);
      expect(pages() - before).toBe(1);
      state = poll.nextState;
    }
  });

  it('finds posts that arrive out of creation order, on the first page and below it', async () => {
    const { clock, emulator, feed } = await postsFeed();
    const seeded = await feed.poll(undefined);
    const start = clock.now();
    const inOrder = [];
    for (let i = 1; i <= 12; i += 1) {
      clock.set(start + i * MINUTE);
      inOrder.push(emulator.admin.addPost({ name: `In order ${i}` }).v2_id);
    }
    clock.set(start + 13 * MINUTE);
    const first = await feed.poll(seeded.nextState);
    expect(idsOf(first.items)).toEqual(inOrder);

    // Published now, created earlier: one lands among the ten newest, one on the page below.
    clock.set(start + 5.5 * MINUTE);
    const onFirstPage = emulator.admin.addPost({ name: 'Late, recent' }).v2_id;
    clock.set(start + 1.5 * MINUTE);
    const onSecondPage = emulator.admin.addPost({ name: 'Late, older' }).v2_id;
    clock.set(start + 14 * MINUTE);
    const late = await feed.poll(first.nextState);
    expect(idsOf(late.items).sort()).toEqual([onFirstPage, onSecondPage].sort());
    const quiet = await feed.poll(late.nextState);
    expect(quiet.items).toEqual([]);
  });

  it('skips and counts a malformed post, keeps its neighbours, and announces it once served intact', async () => {
    const { clock, clientEvents, emulator, feed } = await postsFeed();
    const seeded = await feed.poll(undefined);
    const good = emulator.admin.addPost({ name: 'Good neighbour' });
    clock.advance(MINUTE);
    const broken = emulator.admin.addPost({ name: 'Broken on the wire' });
    clock.advance(MINUTE);
    // The emulator breaks the first node of the next answer: the newest post.
    emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'bad-record' });
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual([good.v2_id]);
    expect(skippedRecords(clientEvents)).toBe(1);

    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).toEqual([broken.v2_id]);
  });

  it('recent(): the newest posts first, at most a service page of 20, without moving the cursor', async () => {
    const { clock, emulator, feed } = await postsFeed();
    const seeded = await feed.poll(undefined);
    const added = [];
    for (let i = 0; i < 3; i += 1) {
      added.push(emulator.admin.addPost({ name: `Recent ${i}` }).v2_id);
      clock.advance(MINUTE);
    }
    const two = await feed.recent({ limit: 2 });
    expect(idsOf(two)).toEqual([added[2], added[1]]);
    expect(provenanceOf(two)).toEqual([
      ['posts', 'new', clock.now()],
      ['posts', 'new', clock.now()],
    ]);
    expect(await feed.recent({ limit: 50 })).toHaveLength(20);

    const { items } = await feed.poll(seeded.nextState);
    expect(idsOf(items)).toEqual(added);
  });
});
