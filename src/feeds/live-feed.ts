import { type DirectoryLiveEvent, liveNewerDay, startsFrom, whollyBefore } from '../directory/index.js';
import { background, canAffordAnotherPage, type Feed, type FeedDependencies, rememberIds } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

export interface LiveFeedState {
  /** Ids of events already announced (bounded). */
  seen: string[];
  /** Upcoming dated events, kept for "starting soon" reminders between polls. */
  upcoming: DirectoryLiveEvent[];
}

export interface LiveFeedOptions extends FeedDependencies {
  /** The earliest reminder any subscription wants, in minutes before the start; 0 = none. */
  reminderHorizonMinutes: () => number;
}

const PAGE_SIZE = 50;
/** Pages holding anything upcoming, per poll. */
const MAX_PAGES_PER_POLL = 5;
/**
 * Pages wholly before now, on top: the listing starts up to three days early (see
 * `liveNewerDay`), and in a busy directory those past events alone could use up the cap and
 * hide every upcoming one. Bounded so a directory full of past events cannot run a poll on.
 */
const MAX_PAST_PAGES_PER_POLL = 10;

/**
 * Upcoming live events, announced once each before they start (offset paging), plus a
 * "starting soon" item for every event inside the reminder horizon. The reminder is its
 * own event kind with its own dedupe key, emitted on every poll while in the window; the
 * router decides per subscription, and dedupe makes it arrive once.
 */
export function createLiveFeed(options: LiveFeedOptions): Feed<LiveFeedState> {
  const { client, clock } = options;
  return {
    name: 'live',
    quotaClass: 'v1',
    costPerPoll: 1,
    async poll(state, signal) {
      const listed: DirectoryLiveEvent[] = [];
      let skipped = 0;
      // A day early enough for any service offset: the listing may start days before now.
      const newer = liveNewerDay(clock.now());
      let upcomingPages = 0;
      let pastPages = 0;
      let readToEnd = false;
      for (let page = 0; ; page += 1) {
        const result = await client.listLiveEvents(
          { newer, perPage: PAGE_SIZE, offset: page * PAGE_SIZE },
          background(signal),
        );
        listed.push(...result.items);
        skipped += result.skipped;
        readToEnd = result.items.length + result.skipped < PAGE_SIZE;
        if (readToEnd) break;
        if (whollyBefore(result.items, clock.now())) pastPages += 1;
        else upcomingPages += 1;
        if (upcomingPages >= MAX_PAGES_PER_POLL || pastPages >= MAX_PAST_PAGES_PER_POLL) break;
      }
      // Read after the pages (a quota wait may have passed): what started before now is not
      // upcoming, however early the listing began.
      const now = clock.now();
      const events = notYetStarted(listed, now);
      const upcoming = events.filter((e) => e.startsAt !== null);
      if (!state) {
        return {
          items: [],
          nextState: {
            seen: rememberIds(
              [],
              events.map((e) => e.id),
            ),
            upcoming,
          },
        };
      }
      const fresh = events.filter((e) => !state.seen.includes(e.id));
      const items: FeedItem[] = fresh.map((event) => toItem(event, 'new', now));

      const horizonMs = options.reminderHorizonMinutes() * 60_000;
      if (horizonMs > 0) {
        // Events from the previous poll count too: one that dropped out of the pages read
        // (the listing grew past them) still deserves its reminder.
        const known = new Map([...state.upcoming, ...upcoming].map((e) => [e.id, e]));
        for (const event of known.values()) {
          const startsAt = Date.parse(event.startsAt ?? '');
          if (startsAt > now && startsAt - now <= horizonMs) items.push(toItem(event, 'reminder', now));
        }
      }
      return {
        items,
        // Started and ended events too: their messages say "live now" and "ended".
        observed: listed.map((event) => toItem(event, 'new', now)),
        // Read to its end, the listing holds every event starting after the earliest listed:
        // the one starting last, once cancelled, is judged like the others (issue 29). Cut
        // short by the page caps, it says nothing about what starts after its last page.
        ...(readToEnd ? { observedThroughNewest: true } : {}),
        ...(skipped > 0 ? { observedPartial: true } : {}),
        nextState: {
          seen: rememberIds(
            state.seen,
            fresh.map((e) => e.id),
          ),
          upcoming,
        },
      };
    },
    async recent(query, call) {
      // The listing starts 1 to 3 days early (see `liveNewerDay`): in a busy directory the
      // first pages hold only events that already started, so read on until `limit` upcoming
      // ones are in hand or the listing ends, as far as the poll would page past them, and
      // only while the caller's budget affords a page at once (a preview never waits on, or
      // spends past, the lookup reserve for a follow-up page).
      const now = clock.now();
      const newer = liveNewerDay(now);
      const upcoming: DirectoryLiveEvent[] = [];
      for (let page = 0; page <= MAX_PAST_PAGES_PER_POLL; page += 1) {
        if (page > 0 && !canAffordAnotherPage(client, 'v1', 1, call?.priority)) break;
        const result = await client.listLiveEvents(
          { newer, perPage: PAGE_SIZE, offset: page * PAGE_SIZE },
          call,
        );
        upcoming.push(...notYetStarted(result.items, now));
        if (upcoming.length >= query.limit || result.items.length + result.skipped < PAGE_SIZE) break;
      }
      return upcoming.slice(0, query.limit).map((event) => toItem(event, 'new', now));
    },
  };
}

/**
 * What the listing holds that has not started by `now`: it begins days early (see
 * `liveNewerDay`), so events that already started are dropped here; undated events are kept,
 * as `newer` keeps them, and announced.
 */
function notYetStarted(listed: readonly DirectoryLiveEvent[], now: number): DirectoryLiveEvent[] {
  return listed.filter((e) => e.startsAt === null || startsFrom(e, now));
}

function toItem(event: DirectoryLiveEvent, kind: 'new' | 'reminder', now: number): FeedItem {
  return makeFeedItem('live', kind, { type: 'live', event }, now);
}
