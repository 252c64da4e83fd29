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
    const entries = releaseEntries(
      subscription,
      { items: [heldComment('1', thread), heldComment('2')], omitted: {} },
      { kind: 'quiet', before: Date.parse('2026-11-24T07:00:00Z') },
      'UTC',
      Date.parse('2026-11-24T07:00:00Z'),
      composeDigest,
    );
    expect(entries.map((e) => [e.itemKey, e.thread])).toEqual([
      ['comments:new:1', thread],
      ['comments:new:2', undefined],
    ]);
  });
});
