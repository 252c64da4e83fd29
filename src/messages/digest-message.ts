import type { Message, MessageEntry } from '../ports/index.js';
import { SCHEDULE_LIMITS } from '../schedule/index.js';
import { KIND_COLORS } from './colors.js';
import { listEntry, oldestFirst, rankByVotes, rankedEntry, uniqueItems } from './digest-entries.js';
import { type DigestHeading, digestHeading, lateNote, omittedNote, restNote } from './digest-heading.js';
import type { DigestInput, DigestLayout } from './digest-input.js';
import { partMarker, splitEntries } from './digest-parts.js';
import { digestClock } from './digest-time.js';
import { summaryLine } from './plain-text.js';

/**
 * The messages a schedule posts in place of the items it held (issue 14), as platform-neutral
 * Messages of kind `digest`, in posting order:
 *
 * - `digest` with `top`: "Top 5 posts · Mon 23 Nov", the N items with the most votes, ranked
 *   (ties: more comments, then found earlier), each line the linked name with its votes and
 *   comments;
 * - `digest` without `top`: "12 new comments since 09:00", every item's one-line form, oldest first;
 * - `quiet`: "While quiet hours were on (22:00–07:00): 9 updates", what quiet hours held;
 * - `cap`: "And 12 more comments", what a volume cap held, naming the limit;
 * - a digest of nothing: "Nothing new in posts since …" (only asked for with `--digest-empty`);
 *   a quiet or cap summary of nothing is no message at all.
 *
 * A message posted after it was due says so first ("Late: this digest was due at …"). Times are
 * written in `input.zone`, which the footer names; each message's `timestamp` (the period's end)
 * is an instant both platforms show in the reader's own zone. A list too long for one message is
 * split at item boundaries into parts that every renderer shows whole, laid out by `layout`
 * (issue 29): the first part is the channel's one message, and the rest follow in its thread or
 * are counted on it with where to see them; `parts` numbers every part "(1/3)"…. Digest messages
 * carry no buttons of their own: each line is its item's link, and delivery adds the
 * subscription's Mute button as to every message.
 */
export function composeDigest(input: DigestInput, layout: DigestLayout = { rest: 'parts' }): Message[] {
  const clock = digestClock(input.zone);
  const items = uniqueItems(input.items);
  if (items.length === 0 && input.kind !== 'digest') return [];
  const top = input.kind === 'digest' && input.top !== undefined ? clampTop(input.top) : undefined;
  const entries: MessageEntry[] =
    top === undefined
      ? oldestFirst(items).map((item) => listEntry(item, clock, input.period.to))
      : rankByVotes(items)
          .slice(0, top)
          .map((item, index) => rankedEntry(item, index + 1));
  const heading = digestHeading(
    { ...input, ...(top === undefined ? {} : { top }) },
    clock,
    entries.length,
    items.length,
  );
  const late = lateNote(input, clock);
  const omitted = omittedNote(input);
  const timestamp = new Date(input.period.to).toISOString();
  const parts = entries.length === 0 ? [[]] : splitEntries(entries);
  const [first = [], ...others] = parts;
  if (layout.rest === 'parts' || others.length === 0) {
    const last = parts.length - 1;
    return parts.map((part, index) =>
      digestPart(heading, part, {
        marker: partMarker(index, parts.length),
        text: [late, index === 0 ? heading.intro : undefined, index === last ? omitted : undefined],
        timestamp,
      }),
    );
  }
  // One message in the channel: what a reader must know (late, what it holds, what is not kept)
  // goes on it, and it says how many lines go on past it and where.
  const rest = others.reduce((sum, part) => sum + part.length, 0);
  const seeMore = layout.rest === 'summary' ? layout.seeMore : undefined;
  const head = digestPart(heading, first, {
    marker: '',
    text: [late, heading.intro, restNote(input, rest, seeMore), omitted],
    timestamp,
  });
  if (layout.rest === 'summary') return [head];
  return [
    head,
    ...others.map((part, index) =>
      digestPart(heading, part, { marker: partMarker(index + 1, parts.length), text: [], timestamp }),
    ),
  ];
}

/** `--top` was validated when set; a stored value out of range still yields a sensible digest. */
function clampTop(top: number): number {
  const whole = Number.isFinite(top) ? Math.floor(top) : SCHEDULE_LIMITS.top.max;
  return Math.min(SCHEDULE_LIMITS.top.max, Math.max(SCHEDULE_LIMITS.top.min, whole));
}

interface PartOptions {
  marker: string;
  text: (string | undefined)[];
  timestamp: string;
}

function digestPart(heading: DigestHeading, entries: MessageEntry[], options: PartOptions): Message {
  const title = heading.title + options.marker;
  const text = options.text.filter((line) => line !== undefined).join('\n\n');
  const names = entries.map((entry) =>
    entry.rank === undefined ? entry.title : `${entry.rank}. ${entry.title}`,
  );
  // The notification line: what the message is, then as many of its items as fit.
  const lead = (heading.lead ?? heading.title) + options.marker;
  const fallback = names.length === 0 ? lead : `${lead}: ${names.join(', ')}`;
  const message: Message = {
    kind: 'digest',
    title,
    fallback: summaryLine(fallback),
    color: KIND_COLORS.digest,
    footer: heading.footer,
    timestamp: options.timestamp,
  };
  if (text !== '') message.text = text;
  if (entries.length > 0) message.entries = entries;
  return message;
}
