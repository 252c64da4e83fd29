import type { DirectoryLiveEvent } from '../directory/index.js';
import type { Message } from '../ports/index.js';

/** A live event as its message shows it: before "starting soon", starting soon, live, over. */
export type LiveStatus = 'scheduled' | 'starting' | 'live' | 'ended';

/** How close to its start a live event's message says "Starting in 10 min". */
export const STARTING_SOON_MS = 10 * 60_000;
/** An event with no end time is taken to be over this long after it started. */
const ASSUMED_LENGTH_MS = 60 * 60_000;

export function liveStatus(event: DirectoryLiveEvent, now: number): LiveStatus | undefined {
  if (event.startsAt === null) return undefined;
  const startsAt = Date.parse(event.startsAt);
  if (!Number.isFinite(startsAt)) return undefined;
  const endsAt = event.endsAt === undefined ? startsAt + ASSUMED_LENGTH_MS : Date.parse(event.endsAt);
  if (now >= endsAt) return 'ended';
  if (now >= startsAt) return 'live';
  return startsAt - now <= STARTING_SOON_MS ? 'starting' : 'scheduled';
}

/** The words a live event's Status field shows; none while merely scheduled. */
export function liveStatusText(status: LiveStatus | undefined): string | undefined {
  switch (status) {
    case 'starting':
      return 'Starting in 10 min or less';
    case 'live':
      return 'Live now — join from the link above';
    case 'ended':
      return 'Ended';
    default:
      return undefined;
  }
}

/** What the channel is told about an item that left the directory. */
export type Removal = 'removed' | 'cancelled';

/**
 * The message, marked as gone upstream: the title says so, the summary line too, and the buttons
 * (which would act on something that is no longer there) are left off. The rest stays, so the
 * channel still knows what it was.
 */
export function markRemoved(message: Message, removal: Removal): Message {
  const banner = removal === 'cancelled' ? 'Cancelled' : 'Removed from the directory';
  const { actions: _actions, ...rest } = message;
  return {
    ...rest,
    title: `${banner}: ${message.title}`,
    fallback: `${banner}: ${message.fallback}`,
    ...(message.footer === undefined ? {} : { footer: `${message.footer} · ${banner.toLowerCase()}` }),
  };
}
