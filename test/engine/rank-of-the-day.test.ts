import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../../src/emulator/index.js';
import { RANKING_COST } from '../../src/engine/todays-ranking.js';
import { createPostsFeed } from '../../src/feeds/posts-feed.js';
import { editsBot, EDIT_MIN_INTERVAL_MS as INTERVAL_MS } from '../support/edits-bot.js';
import { startWorld } from '../support/engine-harness.js';

type World = Awaited<ReturnType<typeof startWorld>>;
const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

/** A fresh emulator (seeded, six of its posts made earlier the same UTC day) and a bot with edits on. */
async function rankingBot(at: string, quotaComplexity?: number) {
  const clock: ManualClock = createManualClock(Date.parse(at));
  const world = await startWorld({ clock, ...(quotaComplexity === undefined ? {} : { quotaComplexity }) });
  worlds.push(world);
  const { bot, pollAndSend } = await editsBot(world, clock, 'posts', 'rank');
  /** What the message of the post named `name` says now in its Rank field. */
  const rankShown = (name: string) => {
    const index = bot.adapter.deliveries.findIndex((d) => d.message.title === name);
    expect(index).toBeGreaterThanOrEqual(0);
    return bot.adapter.current(`m${index + 1}`)?.fields?.find((f) => f.name === 'Rank')?.value;
  };
  /** Ranking queries the bot has sent (ids only: told apart from the feed's page by their cost). */
  const rankingQueries = () =>
    bot.clientEvents.filter((e) => e.type === 'request' && e.cost === RANKING_COST && e.attempt === 1).length;
  /** Posts what was added, then, an interval later, learns the ranking and shows it. */
  const postThenRank = async () => {
    clock.advance(1000);
    await pollAndSend();
    clock.advance(INTERVAL_MS);
    await pollAndSend();
  };
  return { clock, admin: world.emulator.admin, bot, pollAndSend, postThenRank, rankShown, rankingQueries };
}

describe("a post's rank of the day", () => {
  it('shows "#3 today", and edits it to "#1 today" when the post overtakes the two above', async () => {
    const { clock, admin, bot, pollAndSend, rankShown } = await rankingBot('2026-11-23T12:00:00Z');
    try {
      // Far more votes than any seeded post of the day, so these three lead the ranking.
      admin.addPost({ name: 'Gold Widget', votesCount: 300_000 });
      admin.addPost({ name: 'Silver Widget', votesCount: 200_000 });
      const bronze = admin.addPost({ name: 'Bronze Widget', votesCount: 100_000 });
      clock.advance(1000);
      await pollAndSend();
      // Nothing of today was posted before this poll, so no ranking was known yet.
      expect(rankShown('Bronze Widget')).toBeUndefined();

      const medals = ['Gold Widget', 'Silver Widget', 'Bronze Widget'];
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      expect(medals.map(rankShown)).toEqual(['#1 today', '#2 today', '#3 today']);

      admin.addVotes(bronze.id as number, 250_000);
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      expect(medals.map(rankShown)).toEqual(['#2 today', '#3 today', '#1 today']);
      expect(bot.adapter.deliveries).toHaveLength(3);
    } finally {
      await bot.close();
    }
  });

  it('never edits a post marked removed back to its old look when the ranking changes later', async () => {
    const { clock, admin, bot, pollAndSend, postThenRank, rankShown } =
      await rankingBot('2026-11-23T12:00:00Z');
    try {
      admin.addPost({ name: 'Staying Widget', votesCount: 300_000 });
      const doomed = admin.addPost({ name: 'Doomed Widget', votesCount: 200_000 });
      admin.addPost({ name: 'Newest Widget', votesCount: 100_000 });
      await postThenRank();
      expect(rankShown('Doomed Widget')).toBe('#2 today');
      // Marked removed by a poll between two asks; the next ask no longer lists it either.
      admin.removePost(doomed.id as number);
      clock.advance(INTERVAL_MS / 2);
      await pollAndSend();
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      const index = bot.adapter.deliveries.findIndex((d) => d.message.title === 'Doomed Widget');
      expect(bot.adapter.current(`m${index + 1}`)?.title).toBe('Removed from the directory: Doomed Widget');
      expect(rankShown('Newest Widget')).toBe('#2 today');
    } finally {
      await bot.close();
    }
  });

  it('shows nothing outside the top 20, and a new post its rank from its first message', async () => {
    const { clock, admin, bot, pollAndSend, postThenRank, rankShown } =
      await rankingBot('2026-11-23T03:00:00Z');
    try {
      for (let i = 0; i < 20; i += 1) admin.addPost({ name: `Leader ${i}`, votesCount: 1_000_000 + i });
      admin.addPost({ name: 'Quiet Widget', votesCount: 0 });
      await postThenRank();
      expect(rankShown('Leader 19')).toBe('#1 today');
      expect(rankShown('Leader 0')).toBe('#20 today');
      expect(rankShown('Quiet Widget')).toBeUndefined();

      clock.advance(INTERVAL_MS);
      admin.addPost({ name: 'Rocket Widget', votesCount: 5_000_000 });
      await pollAndSend();
      expect(
        bot.adapter
          .delivered('news')
          .at(-1)
          ?.fields?.find((f) => f.name === 'Rank')?.value,
      ).toBe('#1 today');
    } finally {
      await bot.close();
    }
  });

  it('asks the directory at most once per interval, and not while nothing of today was posted', async () => {
    // Late in the UTC day, so the day ends during the test.
    const { clock, admin, bot, pollAndSend, rankShown, rankingQueries } =
      await rankingBot('2026-11-23T23:30:00Z');
    try {
      // Two polls per interval (the quota's pace for this feed; the window is never exhausted).
      const pollFor = async (intervals: number) => {
        for (let i = 0; i < 2 * intervals; i += 1) {
          clock.advance(INTERVAL_MS / 2);
          await pollAndSend();
        }
      };
      // Polls with nothing posted: no query.
      await pollFor(1);
      expect(rankingQueries()).toBe(0);

      admin.addPost({ name: 'Late Widget', votesCount: 900_000 });
      clock.advance(1000);
      await pollAndSend();
      // Four polls over two intervals: a query when one is due, never two within one interval.
      await pollFor(2);
      expect(rankingQueries()).toBe(2);
      expect(rankShown('Late Widget')).toBe('#1 today');

      // Past midnight the post is yesterday's: its rank comes off, and nothing of today is posted.
      while (new Date(clock.now()).getUTCHours() !== 0) clock.advance(60_000);
      await pollFor(2);
      expect(rankingQueries()).toBe(2);
      expect(rankShown('Late Widget')).toBeUndefined();
    } finally {
      await bot.close();
    }
  });

  it('is not asked for when the background budget would not hold the next posts poll after it', async () => {
    const poll = createPostsFeed({} as Parameters<typeof createPostsFeed>[0]).costPerPoll;
    // Three polls made (seeding, posting, this one) leave room for one more poll, not for an ask
    // as well: the rest of the window is the lookup reserve (20 %).
    const limit = Math.round((4 * poll + RANKING_COST / 2) / 0.8);
    const { clock, admin, bot, pollAndSend, rankShown, rankingQueries } = await rankingBot(
      '2026-11-23T12:00:00Z',
      limit,
    );
    try {
      admin.addPost({ name: 'Thrifty Widget', votesCount: 900_000 });
      clock.advance(1000);
      await pollAndSend();
      clock.advance(INTERVAL_MS);
      await pollAndSend();
      expect(rankingQueries()).toBe(0);
      expect(rankShown('Thrifty Widget')).toBeUndefined();
    } finally {
      await bot.close();
    }
  });
});
