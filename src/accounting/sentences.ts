import type { DeliveryRecord } from '../delivery/index.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { HoldReason } from '../held-items/index.js';
import { formatDuration, formatLocal, isKnownZone } from '../schedule/index.js';
import type { Subscription, UnmatchedFilter } from '../subscriptions/index.js';
import { describePause } from '../subscriptions/index.js';

/**
 * Every sentence `/directory why` and the control panel show, defined once. Times are written in
 * the subscription's zone (the zone its schedule is read in), with how long ago or until.
 */
export interface Moment {
  now: number;
  zone: string;
}

/** `14:05 UTC (2 h ago)`, `Mon 23 Nov 09:00 Europe/Paris (in 3 h)`. */
export function when(at: number, { now, zone }: Moment): string {
  // A zone the host can no longer read (removed from its data) is written as UTC, as digests do.
  const usable = isKnownZone(zone) ? zone : 'UTC';
  const sameDay = formatLocal(at, usable, 'day') === formatLocal(now, usable, 'day');
  const clock = formatLocal(at, usable, sameDay ? 'time' : 'day-time');
  const distance =
    Math.abs(now - at) < 1000 ? 'now' : at < now ? `${span(now - at)} ago` : `in ${span(at - now)}`;
  return `${clock} ${usable} (${distance})`;
}

const DAY_MS = 86_400_000;

/** `45 s`, `2 h 5 min`, `3 days`: a rough, readable length of time. */
function span(ms: number): string {
  return ms >= 2 * DAY_MS ? `${Math.round(ms / DAY_MS)} days` : formatDuration(ms);
}

/** One item of a feed, as a sentence names it. */
const ONE_OF: Readonly<Record<FeedName, string>> = {
  posts: 'a post',
  comments: 'a comment',
  collections: 'a collection',
  live: 'a live event',
  notifications: 'a notification',
};

const PLATFORM_NAMES: Readonly<Record<string, string>> = {
  slack: 'Slack',
  discord: 'Discord',
  console: 'The console',
};

/** `Slack`, `Discord`: the platform as people name it. */
export function platformName(platform: string): string {
  return PLATFORM_NAMES[platform] ?? platform;
}

/** Where the message is when there is no link to it (the console's messages have only an id). */
function placeWithoutLink(messageId: string | undefined, link: string | undefined): string {
  return link === undefined && messageId !== undefined ? ` as message ${messageId}` : '';
}

export const sentences = {
  delivered(
    postedAt: number,
    moment: Moment,
    later?: DeliveryRecord,
    messageId?: string,
    link?: string,
  ): string {
    const after =
      later?.outcome === 'deleted'
        ? ` It was deleted ${when(later.at, moment)}, after the directory removed the item.`
        : later?.outcome === 'edited'
          ? ` Last edited ${when(later.at, moment)} to keep it current.`
          : '';
    return `Posted here ${when(postedAt, moment)}${placeWithoutLink(messageId, link)}.${after}`;
  },

  inRelease(kind: HoldReason, postedAt: number, moment: Moment, several: boolean): string {
    const what =
      kind === 'digest' ? 'digest' : kind === 'quiet' ? 'summary after quiet hours' : 'summary over the cap';
    return several
      ? `Went out in one of this subscription's ${kind === 'digest' ? 'digests' : 'summaries'}; the latest ${what} was posted ${when(postedAt, moment)}.`
      : `Went out in the ${what} posted ${when(postedAt, moment)}.`;
  },

  releaseQueued(kind: HoldReason): string {
    return `Taken into this subscription's ${kind === 'digest' ? 'digest' : 'summary'}, which is waiting in the outbox to be posted.`;
  },

  duplicate(
    other: string,
    how: 'posted' | 'queued' | 'held',
    at: number | undefined,
    moment: Moment,
  ): string {
    const through = other === '' ? '' : ` through ${other}`;
    const once = 'a channel gets each item once.';
    if (how === 'held') return `Already taken here by ${other}'s schedule (held, or in its digest): ${once}`;
    return how === 'posted'
      ? `Already posted here${through}${at === undefined ? '' : ` ${when(at, moment)}`}: ${once}`
      : `Already waiting in the outbox here${through}: ${once}`;
  },

  queuedRetry(notBefore: number, moment: Moment, last: DeliveryRecord | undefined): string {
    const why = last?.outcome === 'failed' ? `the last try failed (${failure(last)})` : 'the last try failed';
    return `Waiting in the outbox: ${why}; next try ${when(notBefore, moment)}.`;
  },

  queuedRateLimited(platform: string, notBefore: number, moment: Moment): string {
    return `Waiting in the outbox: ${platformName(platform)} asked the bot to slow down; next try ${when(notBefore, moment)}.`;
  },

  queuedPaced(platform: string, ahead: number): string {
    const place = ahead === 0 ? 'next to go' : `${ahead} message${ahead === 1 ? '' : 's'} ahead of it`;
    return `Waiting in the outbox, ${place}, paced to ${platformName(platform)}'s limits.`;
  },

  held(reason: HoldReason, until: number, subscription: Subscription, moment: Moment): string {
    const at = until <= moment.now ? 'any moment now' : when(until, moment);
    if (reason === 'digest') return `Held for the digest, which goes ${at}.`;
    if (reason === 'quiet')
      return `Held for quiet hours; they end ${at}, and it is posted then (in one summary if many were held).`;
    const { maxPerHour, maxPerDay } = subscription.schedule ?? {};
    const cap = [
      maxPerHour === undefined ? undefined : `${maxPerHour} an hour`,
      maxPerDay === undefined ? undefined : `${maxPerDay} a day`,
    ]
      .filter(Boolean)
      .join(', ');
    return `Held over the cap (${cap}): it goes in one summary ${at}.`;
  },

  failed(record: DeliveryRecord, platform: string, moment: Moment): string {
    const at = when(record.at, moment);
    switch (record.outcome) {
      case 'rejected':
        return `${platformName(platform)} refused the channel ${at} (${failure(record)}); its subscriptions were paused.`;
      case 'dropped':
        return `${platformName(platform)} refused this message ${at} (${failure(record)}); it was dropped, not retried.`;
      case 'abandoned':
        return `Given up ${at} after every retry failed (${failure(record)}).`;
      default:
        return `The last try failed ${at} (${failure(record)}).`;
    }
  },

  paused(subscription: Subscription, now: number): string {
    const why = subscription.paused ? describePause(subscription.paused, now) : 'no reason recorded';
    return `Paused: ${why}. Nothing is posted for it until \`resume ${subscription.id}\`.`;
  },

  notThisFeed(follows: FeedName, itemFeed: FeedName): string {
    return `Follows ${follows}; this is ${ONE_OF[itemFeed]}.`;
  },

  filtered(miss: UnmatchedFilter): string {
    return `Filtered out by ${miss.option} ${miss.wanted}: ${miss.had}.`;
  },

  notFeatured(): string {
    return 'Not featured: the collections feed posts a collection when the directory features it.';
  },

  notPolled(
    feed: FeedName,
    nextPollAt: number | undefined,
    everMs: number | undefined,
    moment: Moment,
  ): string {
    const next =
      nextPollAt !== undefined
        ? `; the next poll is ${nextPollAt <= moment.now ? 'due now' : when(nextPollAt, moment)}`
        : everMs !== undefined && everMs > 0
          ? `; it is polled every ${span(everMs)}`
          : '';
    return `Not polled yet: the ${feed} feed has not reached it${next}.`;
  },

  notPolledEver(feed: FeedName): string {
    return `Not polled yet: the ${feed} feed has not been polled, so it has found nothing so far.`;
  },

  beforeSubscription(itemAt: number, subscription: Subscription, moment: Moment): string {
    return `Too old: it is from ${when(itemAt, moment)}, before this subscription began ${when(subscription.createdAt, moment)}; a subscription posts only what is found after it.`;
  },

  forgotten(itemAt: number, rememberMs: number, moment: Moment): string {
    return `Too old: it is from ${when(itemAt, moment)}, and the bot keeps its records of deliveries for ${span(rememberMs)}.`;
  },

  noRecord(rememberMs: number): string {
    return `Found and matching, but the bot has no record of posting it here: perhaps this subscription was paused when it was found, or it was posted more than ${span(rememberMs)} ago.`;
  },
};

/** `channel_not_found: no such channel` — the platform's code and reason as it said them. */
function failure(record: DeliveryRecord): string {
  return (
    [record.code, record.reason].filter((part) => part !== undefined && part !== '').join(': ') ||
    'no reason given'
  );
}
