import type { DirectoryLiveEvent } from '../directory/index.js';
import type { Message } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, footerFor, type Occasion } from './build-message.js';
import { KIND_COLORS } from './colors.js';
import { liveEventActions } from './feed-actions.js';
import { FieldList, formatInstant, formatLeadTime } from './fields.js';
import { excerpt, singleLine, summaryLine } from './plain-text.js';
import { liveStatus, liveStatusText } from './shown-state.js';

export interface LiveEventMessageOptions {
  /** Compose the "starting soon" reminder instead of the announcement. */
  reminder?: boolean;
  /**
   * The current time in epoch ms, for "in 15 minutes". Reminders default to the wall clock;
   * announcements only mention the lead time when `now` is given, so they stay pure.
   */
  now?: number;
  /** Default `feed`; a lookup carries no buttons. */
  occasion?: Occasion;
}

/**
 * An upcoming live event, or (with `reminder`) the "Starting in 15 minutes: …" reminder.
 * The start time is both a field (readable UTC) and the message timestamp (renderers that
 * can show it in the reader's own zone do so).
 */
export function composeLiveEventMessage(
  event: DirectoryLiveEvent,
  options: LiveEventMessageOptions = {},
): Message {
  const name = singleLine(event.name) || `Live event ${event.id}`;
  const tagline = event.tagline === undefined ? undefined : singleLine(event.tagline) || undefined;
  const reminder = options.reminder === true;
  const now = options.now ?? (reminder ? Date.now() : undefined);
  const startsMs = event.startsAt === null ? Number.NaN : Date.parse(event.startsAt);
  const lead = Number.isNaN(startsMs) || now === undefined ? undefined : formatLeadTime(startsMs - now);
  const startsText = event.startsAt === null ? undefined : formatInstant(event.startsAt);
  const starts =
    startsText === undefined
      ? undefined
      : lead !== undefined && startsMs > (now ?? 0)
        ? `${startsText} (${lead})`
        : startsText;
  // Where it stands now (starting soon, live, ended), kept current by edits in place.
  const status = reminder || now === undefined ? undefined : liveStatusText(liveStatus(event, now));
  const fields = new FieldList()
    .text('Status', status)
    .text('Starts', starts)
    .text('Ends', event.endsAt === undefined ? undefined : formatInstant(event.endsAt))
    .text('Format', event.liveVideo ? 'Live video' : undefined)
    .count('Subscribers', event.subscriberCount);

  const url = sanitizeUrl(event.url);
  const title = reminder ? `${reminderLead(lead)}: ${name}` : name;
  const summary = reminder
    ? title
    : `Live event: ${excerpt(name, 100)}${startsText === undefined ? '' : `, ${startsText}`}${tagline === undefined ? '' : ` — ${tagline}`}`;
  return buildMessage({
    kind: reminder ? 'live-reminder' : 'live',
    title,
    url,
    text: tagline,
    fields: fields.build(),
    imageUrl: sanitizeUrl(event.imageUrl),
    timestamp: event.startsAt ?? undefined,
    color: reminder ? KIND_COLORS['live-reminder'] : KIND_COLORS.live,
    footer: footerFor(reminder ? 'starting soon' : 'live event'),
    fallback: summaryLine(summary),
    actions: options.occasion === 'lookup' ? undefined : liveEventActions(event.id, url, reminder),
  });
}

/** "Starting in 15 minutes", "Starting now", or "Starting soon" when the time is unknown. */
function reminderLead(lead: string | undefined): string {
  if (lead === undefined) return 'Starting soon';
  return lead === 'now' ? 'Starting now' : `Starting ${lead}`;
}
