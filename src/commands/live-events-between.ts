import {
  type DirectoryClient,
  type DirectoryLiveEvent,
  liveNewerDay,
  startsFrom,
  whollyBefore,
} from '../directory/index.js';
import { INTERACTIVE } from './interactive.js';

/** The V1 `per_page` ceiling: the listing starts days early, so take big pages. */
const PAGE = 50;
/** A person is waiting: a few pages at most that reach the window… */
const MAX_PAGES = 3;
/** …plus a few wholly before it: the listing starts up to three days early. */
const MAX_PAGES_BEFORE = 4;

export interface LiveWindow {
  /** Epoch ms: the first instant an event may start at. */
  from: number;
  /** Epoch ms: events must start before this; Infinity for no end. */
  until: number;
  /** Only on-camera events. */
  video: boolean;
  /** How many events are wanted, soonest first. */
  count: number;
}

/**
 * The first `count` dated live events starting in [from, until), soonest first. The window is
 * ours (UTC instants), not the service's: GET /v1/live is asked from a day early enough for any
 * service offset (`liveNewerDay`) and the events are cut to the window here, so the answer is
 * the same whatever calendar the service keeps. The service lists soonest first, so paging
 * stops once enough events were found or the listing has gone past the window.
 */
export async function listLiveEventsBetween(
  client: DirectoryClient,
  window: LiveWindow,
): Promise<DirectoryLiveEvent[]> {
  const newer = liveNewerDay(window.from);
  const found: DirectoryLiveEvent[] = [];
  let pagesInWindow = 0;
  let pagesBefore = 0;
  for (let page = 0; pagesInWindow < MAX_PAGES && pagesBefore < MAX_PAGES_BEFORE; page += 1) {
    const result = await client.listLiveEvents(
      { newer, perPage: PAGE, offset: page * PAGE, ...(window.video ? { liveVideo: true } : {}) },
      INTERACTIVE,
    );
    found.push(...result.items.filter((e) => startsFrom(e, window.from) && !startsFrom(e, window.until)));
    const last = result.items.at(-1);
    const pastWindow = last !== undefined && (last.startsAt === null || startsFrom(last, window.until));
    if (found.length >= window.count || pastWindow || result.items.length + result.skipped < PAGE) break;
    if (whollyBefore(result.items, window.from)) pagesBefore += 1;
    else pagesInWindow += 1;
  }
  return found
    .sort((a, b) => Date.parse(a.startsAt ?? '') - Date.parse(b.startsAt ?? ''))
    .slice(0, window.count);
}
