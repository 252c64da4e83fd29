import { describe, expect, it } from 'vitest';
import { createCollectionsFeed } from '../../src/feeds/collections-feed.js';
import { feedOnEmulator, idsOf, provenanceOf, skippedRecords } from '../support/feed-emulator.js';

const MINUTE = 60_000;
const collectionsFeed = feedOnEmulator(createCollectionsFeed, { at: '2026-11-23T15:00:00Z' });

describe('the collections feed', () => {
  it('starts from now: the first poll yields nothing of what is already featured', async () => {
    const { emulator, feed } = await collectionsFeed();
    expect(emulator.admin.counts().featuredCollections).toBeGreaterThan(0);
    const { items } = await feed.poll(undefined);
    expect(items).toEqual([]);
  });

  it('yields collections as they are featured, in that order and once, however old they are', async () => {
    const { clock, emulator, feed } = await collectionsFeed();
    const old = emulator.admin.addCollection({ name: 'Made long ago' });
    clock.advance(30 * 24 * 60 * MINUTE);
    const seeded = await feed.poll(undefined);
    emulator.admin.addCollection({ name: 'Never featured' });
    const fresh = emulator.admin.addCollection({ name: 'Featured at birth', featured: true });
    clock.advance(MINUTE);
    emulator.admin.featureCollection(old.id);
    clock.advance(MINUTE);
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual([String(fresh.id), String(old.id)]);
    expect(provenanceOf(poll.items)).toEqual([
      ['collections', 'new', clock.now()],
      ['collections', 'new', clock.now()],
    ]);

    // Featured again (which bumps it to the top), it is not news twice.
    emulator.admin.featureCollection(old.id);
    clock.advance(MINUTE);
    const next = await feed.poll(poll.nextState);
    expect(next.items).toEqual([]);
  });

  it('skips and counts a malformed collection, keeps its neighbours and never repeats them', async () => {
    const { clock, clientEvents, emulator, feed } = await collectionsFeed();
    const seeded = await feed.poll(undefined);
    const good = emulator.admin.addCollection({ name: 'Good neighbour', featured: true });
    clock.advance(MINUTE);
    // The emulator breaks the first record of the next answer: the collection featured last.
    emulator.admin.addCollection({ name: 'Broken on the wire', featured: true });
    clock.advance(MINUTE);
    emulator.admin.injectFault({ route: '/v1/collections', count: 1, kind: 'bad-record' });
    const poll = await feed.poll(seeded.nextState);
    expect(idsOf(poll.items)).toEqual([String(good.id)]);
    expect(skippedRecords(clientEvents)).toBe(1);

    const next = await feed.poll(poll.nextState);
    expect(idsOf(next.items)).not.toContain(String(good.id));
  });

  it('recent(): featured collections, the most recently featured or edited first, at most the limit', async () => {
    const { clock, emulator, feed } = await collectionsFeed();
    const seeded = await feed.poll(undefined);
    const first = emulator.admin.addCollection({ name: 'First', featured: true });
    clock.advance(MINUTE);
    emulator.admin.addCollection({ name: 'Not featured' });
    clock.advance(MINUTE);
    const second = emulator.admin.addCollection({ name: 'Second', featured: true });
    clock.advance(MINUTE);
    const recent = await feed.recent({ limit: 2 });
    expect(idsOf(recent)).toEqual([String(second.id), String(first.id)]);
    expect(provenanceOf(recent)).toEqual([
      ['collections', 'new', clock.now()],
      ['collections', 'new', clock.now()],
    ]);

    const { items } = await feed.poll(seeded.nextState);
    expect(idsOf(items)).toEqual([String(first.id), String(second.id)]);
  });
});
