import { describe, expect, it } from 'vitest';
import { releaseEntries } from '../../src/held-items/release-entries.js';
import type { HeldItem } from '../../src/messages/digest-input.js';
import { composeDigest } from '../../src/messages/index.js';
import type { Subscription } from '../../src/subscriptions/subscription.js';

/** A comment held through quiet hours is released as the reply it was: under its post's message. */

const subscription: Subscription = {
  id: 'sq',
  platform: 'slack',
  channelId: 'C0QUIET1',
  feed: 'comments',
  filters: {},
  createdBy: 'U1',
  createdAt: 0,
  schedule: { quiet: { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } } },
};

function heldComment(id: string, thread?: HeldItem['thread']): HeldItem {
  return {
    itemKey: `comments:new:${id}`,
    feed: 'comments',
    message: { kind: 'comment', title: `Comment ${id}`, fallback: `Comment ${id}` },
    discoveredAt: Date.parse('2026-11-23T23:00:00Z'),
    reason: 'quiet',
    ...(thread === undefined ? {} : { thread }),
  };
}

describe('releasing what quiet hours held', () => {
  it('keeps each reply under its post, and a top-level comment top-level', () => {
    const thread = { parentKey: 'posts:new:42', title: 'Post 42' };
    const { entries } = releaseEntries(
      subscription,
      { items: [heldComment('1', thread), heldComment('2')], omitted: {} },
      { kind: 'quiet', before: Date.parse('2026-11-24T07:00:00Z') },
      { zone: 'UTC', repliesInThreads: true },
      Date.parse('2026-11-24T07:00:00Z'),
      composeDigest,
    );
    expect(entries.map((e) => [e.itemKey, e.thread])).toEqual([
      ['comments:new:1', thread],
      ['comments:new:2', undefined],
    ]);
  });
});

describe('releasing a digest longer than one message (issue 29)', () => {
  const digest: Subscription = {
    ...subscription,
    id: 'sd',
    schedule: { digest: { every: 'hourly' } },
  };
  const before = Date.parse('2026-11-24T07:00:00Z');
  const held = Array.from({ length: 45 }, (_, i) => ({
    ...heldComment(String(i)),
    reason: 'digest' as const,
    discoveredAt: before - 60_000 * (45 - i),
  }));
  const release = (s: Subscription, repliesInThreads: boolean) =>
    releaseEntries(
      s,
      { items: held, omitted: {}, lastDigestAt: before - 3_600_000 },
      { kind: 'digest', before },
      { zone: 'UTC', repliesInThreads },
      before,
      composeDigest,
    );

  it('queues its first part top-level and the rest as replies under it, each able to stand in for it', () => {
    const { entries, parts } = release(digest, true);
    expect(parts?.length).toBeGreaterThan(1);
    const key = (part: number) => `digest:sd:2026-11-24T07:00:00.000Z:${part}`;
    expect(entries.map((e) => e.itemKey)).toEqual(parts?.map((_, i) => key(i + 1)));
    const [head, ...replies] = entries;
    expect(head?.thread).toBeUndefined();
    for (const reply of replies) {
      expect(reply.thread?.parentKey).toBe(key(1));
      expect(reply.thread?.title).toBe(head?.message.title);
      expect(reply.thread?.parentInstead?.text).toMatch(/see them with \/directory digest sd 2\.$/);
    }
  });

  it('queues one message, counting the rest, where replies are not kept in threads or threads are off', () => {
    const off: Subscription = { ...digest, threading: { off: true } };
    for (const [s, threads] of [
      [digest, false],
      [off, true],
    ] as const) {
      const { entries } = release(s, threads);
      expect(entries).toHaveLength(1);
      expect(entries[0]?.message.text).toMatch(
        /^And \d+ more comments: see them with \/directory digest sd 2\.$/,
      );
    }
  });
});
