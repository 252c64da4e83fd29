import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import type { Message } from '../../src/ports/index.js';
import { editsBot, EDIT_MIN_INTERVAL_MS as MIN_INTERVAL_MS, waitUntil } from '../support/edits-bot.js';
import { startWorld } from '../support/engine-harness.js';

const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
const world = await startWorld({ clock });
afterAll(() => world.close());
const { admin } = world.emulator;

const field = (message: Message | undefined, name: string) =>
  message?.fields?.find((f) => f.name === name)?.value;

const botFor = (feed: FeedName, namespace: string) => editsBot(world, clock, feed, namespace);

describe('messages kept current in place', () => {
  it('edits a posted post when its votes change, once, and not when nothing shown changed', async () => {
    const { bot, pollAndSend } = await botFor('posts', 'votes');
    try {
      const post = admin.addPost({ name: 'Edited Widget' });
      clock.advance(1000);
      await pollAndSend();
      expect(bot.adapter.delivered('news').map((m) => m.title)).toEqual(['Edited Widget']);
      const votes = Number(field(bot.adapter.delivered('news')[0], 'Votes') ?? 0);

      clock.advance(MIN_INTERVAL_MS);
      admin.addVotes(post.id as number, 7);
      expect((await pollAndSend())?.edits).toBe(1);
      expect(bot.adapter.edits).toHaveLength(1);
      expect(field(bot.adapter.current('m1'), 'Votes')).toBe(String(votes + 7));

      // Nothing shown changed: no edit.
      clock.advance(MIN_INTERVAL_MS);
      expect((await pollAndSend())?.edits ?? 0).toBe(0);
      expect(bot.adapter.edits).toHaveLength(1);
      expect(bot.adapter.deliveries).toHaveLength(1);
    } finally {
      await bot.close();
    }
  });

  it('sends at most one edit per interval, showing only the latest state', async () => {
    const { bot, pollAndSend } = await botFor('posts', 'coalesce');
    try {
      const post = admin.addPost({ name: 'Busy Widget' });
      clock.advance(1000);
      await pollAndSend();
      const start = Number(field(bot.adapter.delivered('news')[0], 'Votes') ?? 0);
      admin.addVotes(post.id as number, 1);
      await pollAndSend();
      // Posted under a second ago: the edit waits for the interval, and newer states fold into it.
      for (const more of [2, 3]) {
        clock.advance(60_000);
        admin.addVotes(post.id as number, more);
        await pollAndSend();
      }
      expect(bot.adapter.edits).toHaveLength(0);
      expect(bot.engine.outbox.depth('console:news')).toBe(1);
      clock.advance(MIN_INTERVAL_MS);
      bot.engine.dispatcher.wake();
      await waitUntil(() => bot.engine.outbox.size() === 0);
      expect(bot.adapter.edits.map((e) => field(e.message, 'Votes'))).toEqual([String(start + 6)]);
    } finally {
      await bot.close();
    }
  });

  it('marks a post removed upstream, and leaves a message older than the limit alone', async () => {
    const { bot, pollAndSend } = await botFor('posts', 'removed');
    try {
      const gone = admin.addPost({ name: 'Doomed Widget' });
      const old = admin.addPost({ name: 'Old Widget' });
      admin.addPost({ name: 'Newest Widget' });
      clock.advance(1000);
      await pollAndSend();
      expect(bot.adapter.deliveries).toHaveLength(3);
      admin.removePost(gone.id as number);
      clock.advance(MIN_INTERVAL_MS);
      await pollAndSend();
      // The other two gain their rank of the day in the same poll; the doomed one is marked gone.
      const doomed = bot.adapter.deliveries.findIndex((d) => d.message.title === 'Doomed Widget');
      const doomedEdits = bot.adapter.edits.filter((e) => e.messageId === `m${doomed + 1}`);
      expect(doomedEdits).toHaveLength(1);
      const edited = doomedEdits[0]!.message;
      expect(edited.title).toBe('Removed from the directory: Doomed Widget');
      // The post's own buttons are gone; muting the subscription still makes sense.
      expect(edited.actions?.map((a) => a.label)).toEqual(['Mute this subscription']);
      expect(bot.adapter.deliveries).toHaveLength(3);

      const editsBefore = bot.adapter.edits.length;
      clock.advance(25 * 3_600_000);
      admin.addVotes(old.id as number, 50);
      await pollAndSend();
      expect(bot.adapter.edits).toHaveLength(editsBefore);
    } finally {
      await bot.close();
    }
  });

  it('does not take a post the poll could not read for a removed one', async () => {
    const { bot, pollAndSend } = await botFor('posts', 'unreadable');
    try {
      admin.addPost({ name: 'Older Widget' });
      admin.addPost({ name: 'Garbled Widget' });
      clock.advance(1000);
      await pollAndSend();
      expect(bot.adapter.deliveries).toHaveLength(2);
      // The newest record (the garbled one) fails validation in the next listing: left out, and
      // so missing from it, but not removed. Nothing may say it is gone, or delete it.
      world.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'bad-record' });
      clock.advance(MIN_INTERVAL_MS);
      await pollAndSend();
      const removed = bot.adapter.edits.filter((e) =>
        e.message.title.startsWith('Removed from the directory'),
      );
      expect(removed).toEqual([]);
    } finally {
      await bot.close();
    }
  });

  it('marks a live event cancelled when it leaves the listing before it starts', async () => {
    const { bot, pollAndSend } = await botFor('live', 'cancelled');
    try {
      const first = admin.scheduleLive({
        name: 'Doomed AMA',
        startsAt: new Date(clock.now() + 2 * 3_600_000).toISOString(),
      });
      admin.scheduleLive({
        name: 'Later AMA',
        startsAt: new Date(clock.now() + 3 * 3_600_000).toISOString(),
      });
      clock.advance(1000);
      await pollAndSend();
      expect(bot.adapter.delivered('news').map((m) => m.title)).toEqual(['Doomed AMA', 'Later AMA']);
      admin.cancelLive(first.id as number);
      clock.advance(MIN_INTERVAL_MS);
      await pollAndSend();
      expect(bot.adapter.edits.map((e) => e.message.title)).toEqual(['Cancelled: Doomed AMA']);
    } finally {
      await bot.close();
    }
  });

  it('says "live now" once a posted event has started', async () => {
    const { bot, pollAndSend } = await botFor('live', 'status');
    try {
      admin.scheduleLive({ name: 'Soon AMA', startsAt: new Date(clock.now() + 20 * 60_000).toISOString() });
      clock.advance(1000);
      await pollAndSend();
      expect(field(bot.adapter.delivered('news')[0], 'Status')).toBeUndefined();
      clock.advance(25 * 60_000);
      await pollAndSend();
      expect(bot.adapter.edits.map((e) => field(e.message, 'Status'))).toEqual([
        'Live now — join from the link above',
      ]);
    } finally {
      await bot.close();
    }
  });
});
