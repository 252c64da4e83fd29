import type { DigestInput, HeldItem } from '../../src/messages/digest-input.js';
import type { Message } from '../../src/ports/index.js';

/** 09:00 in Berlin on Monday 23 November 2026: the instant the digests in these tests are due. */
export const DUE = Date.parse('2026-11-23T08:00:00Z');
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A held post as the feed would have posted it, `minutesBefore` DUE. */
export function heldPost(
  id: number,
  numbers: { votes?: number; comments?: number; minutesBefore?: number; name?: string; url?: string } = {},
): HeldItem {
  const name = numbers.name ?? `Launch ${id}`;
  const message: Message = {
    kind: 'post',
    title: name,
    url: numbers.url ?? `https://www.example-directory.test/posts/launch-${id}`,
    text: 'A tagline',
    fallback: `New post: ${name} — A tagline`,
    footer: 'Directory · new post',
  };
  const item: HeldItem = {
    itemKey: `post:${id}`,
    feed: 'posts',
    message,
    discoveredAt: DUE - (numbers.minutesBefore ?? id) * 60_000,
    reason: 'digest',
  };
  if (numbers.votes !== undefined) item.votes = numbers.votes;
  if (numbers.comments !== undefined) item.comments = numbers.comments;
  return item;
}

/** A held comment, `minutesBefore` DUE. */
export function heldComment(id: number, minutesBefore: number, body = 'Congrats on the launch!'): HeldItem {
  const message: Message = {
    kind: 'comment',
    title: 'New comment on Analytical Engine',
    url: `https://www.example-directory.test/posts/analytical-engine?comment=${id}`,
    text: body,
    fallback: `New comment by Ada Lovelace on "Analytical Engine": ${body}`,
  };
  return {
    itemKey: `comment:${id}`,
    feed: 'comments',
    message,
    discoveredAt: DUE - minutesBefore * 60_000,
    reason: 'digest',
  };
}

/** A daily 09:00 digest of `items` over the day before DUE, in Berlin unless told. */
export function dailyDigest(items: readonly HeldItem[], more: Partial<DigestInput> = {}): DigestInput {
  return {
    kind: 'digest',
    feed: items[0]?.feed ?? 'posts',
    items,
    period: { from: DUE - DAY, to: DUE },
    zone: 'Europe/Berlin',
    recurrence: { every: 'daily', at: { hour: 9, minute: 0 } },
    ...more,
  };
}
