import { type DigestRecurrence, SCHEDULE_LIMITS } from '../schedule/index.js';
import type { DigestInput } from './digest-input.js';
import type { DigestClock } from './digest-time.js';
import { formatCount } from './fields.js';

/** What a digest or summary says above its list. Plain text. */
export interface DigestHeading {
  title: string;
  /** A sentence under the title on the first part (what was collected, from when). */
  intro?: string;
  footer: string;
  /** How the notification line starts, when not with the title: `and 12 more` for a cap. */
  lead?: string;
}

/** The feed's items in words, for "12 new comments". An unknown feed's items are "updates". */
const NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  posts: ['post', 'posts'],
  comments: ['comment', 'comments'],
  collections: ['collection', 'collections'],
  live: ['live event', 'live events'],
  notifications: ['notification', 'notifications'],
};

function noun(count: number, feed: string): string {
  const [one, many] = Object.hasOwn(NOUNS, feed)
    ? (NOUNS[feed] as readonly [string, string])
    : ['update', 'updates'];
  return count === 1 ? one : many;
}

/** `12 comments`, `1 post`; `adjective` goes between: `12 new comments`. */
function counted(count: number, feed: string, adjective = ''): string {
  return `${formatCount(count)} ${adjective === '' ? '' : `${adjective} `}${noun(count, feed)}`;
}

function feedWords(feed: string): string {
  return Object.hasOwn(NOUNS, feed) ? (NOUNS[feed] as readonly [string, string])[1] : feed;
}

function recurrenceName(recurrence: DigestRecurrence | undefined): string {
  return recurrence === undefined ? 'digest' : `${recurrence.every} digest`;
}

/** Which stretch of time a ranked digest covers, as its title names it: the local day for a daily one. */
function periodLabel(input: DigestInput, clock: DigestClock): string {
  const { from, to } = input.period;
  // The period ends at the slot itself (exclusive): its last instant names the day it covers.
  const last = Math.max(from, to - 1);
  switch (input.recurrence?.every) {
    case 'hourly':
      // A period that starts on another day (a late digest after an outage) names that day.
      return `${clock.near(from, last)}–${clock.format(to, 'time')}`;
    case 'weekly':
      return `week to ${clock.format(last, 'day')}`;
    default:
      return clock.format(last, 'day');
  }
}

function footer(what: string, clock: DigestClock): string {
  return `Directory · ${what} · times in ${clock.zone}`;
}

/**
 * The heading of each kind of message (see composeDigest): a ranked or listed digest, a quiet
 * hours summary, a volume cap's "and N more", and an empty digest. `shown` items of `total`
 * collected are listed.
 */
export function digestHeading(
  input: DigestInput,
  clock: DigestClock,
  shown: number,
  total: number,
): DigestHeading {
  const { from, to } = input.period;
  const since = clock.near(from, to);
  switch (input.kind) {
    case 'quiet':
      return {
        title: `While quiet hours were on (${clock.format(from, 'time')}–${clock.format(to, 'time')}): ${counted(total, 'updates')}`,
        intro: 'Held back while the channel was quiet, oldest first.',
        footer: footer('quiet hours summary', clock),
      };
    case 'cap':
      return capHeading(input, clock, total);
    default:
      break;
  }
  const what = footer(recurrenceName(input.recurrence), clock);
  if (total === 0) return { title: `Nothing new in ${feedWords(input.feed)} since ${since}`, footer: what };
  if (input.top !== undefined) {
    return {
      title: `Top ${counted(shown, input.feed)} · ${periodLabel(input, clock)}`,
      intro:
        shown < total
          ? `The ${formatCount(shown)} with the most votes of ${counted(total, input.feed)} found since ${since}.`
          : `All ${counted(total, input.feed)} found since ${since}, by votes.`,
      footer: what,
    };
  }
  return { title: `${counted(total, input.feed, 'new')} since ${since}`, footer: what };
}

function capHeading(input: DigestInput, clock: DigestClock, total: number): DigestHeading {
  const { from, to } = input.period;
  // Without the limit named, a window longer than two hours (a day, 23 or 25 hours on DST days) is a daily cap.
  const per = input.cap?.per ?? (to - from > 2 * 3_600_000 ? 'day' : 'hour');
  const window =
    per === 'hour' ? `${clock.format(from, 'time')}–${clock.format(to, 'time')}` : clock.format(from, 'day');
  const limit =
    input.cap === undefined
      ? `this channel's limit per ${per}`
      : `this channel's limit of ${formatCount(input.cap.max)} ${per === 'hour' ? 'an hour' : 'a day'}`;
  return {
    title: `And ${counted(total, input.feed, 'more')}`,
    intro: `Held back by ${limit} (${window}), oldest first.`,
    footer: footer('over the limit', clock),
    lead: `and ${formatCount(total)} more`,
  };
}

/**
 * The line a digest's one message in the channel ends its text with when its list goes on:
 * `And 24 more comments in this message's thread.`, or where a thread is not possible,
 * `And 24 more comments: see them with /directory digest s1a2b3c 2.` (`seeMore`).
 */
export function restNote(input: DigestInput, count: number, seeMore?: string): string {
  // A quiet-hours summary counts "updates" in its headline; its rest is counted the same way.
  const more = counted(count, input.kind === 'quiet' ? 'updates' : input.feed, 'more');
  return seeMore === undefined
    ? `And ${more} in this message's thread.`
    : `And ${more}: see them with ${seeMore}.`;
}

/** The visible note on a message posted after its time because the bot was not running. */
export function lateNote(input: DigestInput, clock: DigestClock): string | undefined {
  if (input.lateFor === undefined) return undefined;
  const what = input.kind === 'digest' ? 'digest' : 'summary';
  return `Late: this ${what} was due at ${clock.format(input.lateFor, 'day-time')} (the bot was offline).`;
}

/**
 * Items a schedule let go when it already held its most (the oldest, or for a top-N digest the
 * fewest votes) are never shown, but the reader is told how many, so nothing is lost silently.
 */
export function omittedNote(input: DigestInput): string | undefined {
  const count = input.omitted ?? 0;
  if (count <= 0) return undefined;
  const which =
    input.kind === 'digest' && input.top !== undefined ? 'those with the fewest votes' : 'the oldest';
  const items = count === 1 ? 'item was' : 'items were';
  return `${count} more ${items} found in this period but not kept (${which}): a schedule holds at most ${SCHEDULE_LIMITS.heldItems} items at a time.`;
}
