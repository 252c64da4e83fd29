import type { RunningEmulator } from '../../src/emulator/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import type { Subscription, SubscriptionRepository } from '../../src/subscriptions/index.js';

/** A moment ago as the answer writes it, whatever the hour: `00:02 UTC (now)`, `Mon 23 Nov 23:59 UTC (3 s ago)`. */
export const JUST_NOW =
  '(?:[A-Z][a-z]{2} \\d{1,2} [A-Z][a-z]{2} )?\\d\\d:\\d\\d UTC \\((?:now|\\d+ s ago)\\)';

/** A bot as the story needs it: where it keeps subscriptions, its emulator, and one poll delivered to the end. */
export interface StoryBot {
  subscriptions: Pick<SubscriptionRepository, 'add'>;
  emulator: RunningEmulator;
  pollAndDeliver(): Promise<void>;
}

/**
 * The same channel story wherever "why" is asked (`/directory why`, the panel), against the
 * emulator. One channel follows posts three times, in this order: a daily digest of those
 * mentioning "airship", everything, and those mentioning "zeppelin". Two new posts are polled and
 * delivered: "Difference engine <platform>" is posted (for everything) and filtered out by the
 * other two; "Airship engine <platform>" is held for the digest (a channel gets an item once, so
 * everything has it as a duplicate).
 */
export async function channelStory(
  bot: StoryBot,
  platform: string,
  channelId: string,
  extra: Partial<Subscription> = {},
) {
  const subscribe = async (more: Partial<Subscription>) =>
    (
      await bot.subscriptions.add({
        platform,
        channelId,
        feed: 'posts' as FeedName,
        filters: {},
        createdBy: 'e2e',
        ...extra,
        ...more,
      })
    ).subscription;
  const digest = await subscribe({
    filters: { keywords: ['airship'] },
    schedule: { digest: { every: 'daily', at: { hour: 9, minute: 0 } } },
  });
  const all = await subscribe({});
  const zeppelins = await subscribe({ filters: { keywords: ['zeppelin'] } });
  await bot.pollAndDeliver(); // the first poll records what exists: nothing of it is posted
  const engine = bot.emulator.admin.addPost({
    name: `Difference engine ${platform}`,
    tagline: 'Brass and steam',
  });
  const airship = bot.emulator.admin.addPost({
    name: `Airship engine ${platform}`,
    tagline: 'Lighter than air',
  });
  await bot.pollAndDeliver();
  return {
    posted: String(engine['discussion_url']),
    held: String(airship['discussion_url']),
    all,
    zeppelins,
    digest,
  };
}
