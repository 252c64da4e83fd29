import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import { editsBot, EDIT_MIN_INTERVAL_MS as INTERVAL_MS } from '../support/edits-bot.js';
import { startWorld } from '../support/engine-harness.js';

/**
 * Issue 29: a removal is judged whichever place the item held in what a poll lists, the edges
 * too. A listing read from its newest record covers everything newer than its oldest one; one
 * read to its end covers everything after its start. An item at either edge that goes leaves
 * the span the next listing shows, so judging only "between the oldest and the newest listed"
 * never saw it go.
 */
const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
const world = await startWorld({ clock });
afterAll(() => world.close());
const { admin } = world.emulator;

type Bot = Awaited<ReturnType<typeof editsBot>>['bot'];
const removedTitles = (bot: Bot) =>
  bot.adapter.edits.map((e) => e.message.title).filter((t) => /^(Removed|Cancelled)/.test(t));

describe('removals at the edge of a listing', () => {
  it('marks the newest post removed upstream', async () => {
    const { bot, pollAndSend } = await editsBot(world, clock, 'posts', 'newest-post');
    try {
      admin.addPost({ name: 'Older Widget' });
      clock.advance(1000);
      const newest = admin.addPost({ name: 'Newest Widget' });
      clock.advance(1000);
      await pollAndSend();
      expect(bot.adapter.delivered('news').map((m) => m.title)).toEqual(['Older Widget', 'Newest Widget']);
      admin.removePost(newest.id as number);
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      expect(removedTitles(bot)).toEqual(['Removed from the directory: Newest Widget']);
    } finally {
      await bot.close();
    }
  });

  it('marks the newest post removed once, whether or not newer posts arrive before the next poll', async () => {
    const { bot, pollAndSend } = await editsBot(world, clock, 'posts', 'newest-then-newer');
    try {
      const doomed = admin.addPost({ name: 'Short-lived Widget' });
      clock.advance(1000);
      await pollAndSend();
      admin.removePost(doomed.id as number);
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      admin.addPost({ name: 'Later Widget' });
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      expect(bot.adapter.delivered('news').map((m) => m.title)).toEqual([
        'Short-lived Widget',
        'Later Widget',
      ]);
      expect(removedTitles(bot)).toEqual(['Removed from the directory: Short-lived Widget']);
    } finally {
      await bot.close();
    }
  });

  it('marks the live event starting last cancelled when the listing was read to its end', async () => {
    const { bot, pollAndSend } = await editsBot(world, clock, 'live', 'last-event');
    try {
      // Later than every event the emulator invented, so it is the last one listed.
      const year = 365 * 24 * 3_600_000;
      admin.scheduleLive({ name: 'Sooner AMA', startsAt: new Date(clock.now() + 3 * year).toISOString() });
      const last = admin.scheduleLive({
        name: 'Latest AMA',
        startsAt: new Date(clock.now() + 3 * year + 3_600_000).toISOString(),
      });
      clock.advance(1000);
      await pollAndSend();
      expect(bot.adapter.delivered('news').map((m) => m.title)).toEqual(['Sooner AMA', 'Latest AMA']);
      admin.cancelLive(last.id as number);
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      expect(removedTitles(bot)).toEqual(['Cancelled: Latest AMA']);
    } finally {
      await bot.close();
    }
  });
});
