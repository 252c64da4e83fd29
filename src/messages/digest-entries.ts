import { ENTRY_LIMITS, linkUrl, type MessageEntry } from '../ports/index.js';
import type { HeldItem } from './digest-input.js';
import type { DigestClock } from './digest-time.js';
import { formatCount } from './fields.js';
import { formatMessage } from './format-message.js';
import { summaryLine } from './plain-text.js';

/**
 * The items a digest shows, once each: an item held twice (seen again before the digest went
 * out) keeps its latest numbers and its first discovery time.
 */
export function uniqueItems(items: readonly HeldItem[]): HeldItem[] {
  const byKey = new Map<string, HeldItem>();
  for (const item of items) {
    const seen = byKey.get(item.itemKey);
    byKey.set(
      item.itemKey,
      seen === undefined ? item : { ...item, discoveredAt: Math.min(seen.discoveredAt, item.discoveredAt) },
    );
  }
  return [...byKey.values()];
}

/** Oldest first: the order they would have been posted in. Ties keep a fixed order by key. */
export function oldestFirst(items: readonly HeldItem[]): HeldItem[] {
  return [...items].sort((a, b) => a.discoveredAt - b.discoveredAt || compareKeys(a, b));
}

/**
 * Best first, like a launch board: more votes, then more comments, then found earlier (it got
 * there first). An item whose numbers are unknown ranks below every counted one.
 */
export function rankByVotes(items: readonly HeldItem[]): HeldItem[] {
  const count = (value: number | undefined) => (value !== undefined && Number.isFinite(value) ? value : -1);
  return [...items].sort(
    (a, b) =>
      count(b.votes) - count(a.votes) ||
      count(b.comments) - count(a.comments) ||
      a.discoveredAt - b.discoveredAt ||
      compareKeys(a, b),
  );
}

function compareKeys(a: HeldItem, b: HeldItem): number {
  return a.itemKey < b.itemKey ? -1 : a.itemKey > b.itemKey ? 1 : 0;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** `120 votes · 14 comments`, leaving out what is unknown. */
export function countsText(item: HeldItem): string | undefined {
  const parts: string[] = [];
  if (item.votes !== undefined && Number.isFinite(item.votes))
    parts.push(plural(item.votes, 'vote', 'votes'));
  if (item.comments !== undefined && Number.isFinite(item.comments))
    parts.push(plural(item.comments, 'comment', 'comments'));
  return parts.length === 0 ? undefined : parts.join(' · ');
}

function entry(
  title: string,
  url: string | undefined,
  detail: string | undefined,
  rank?: number,
): MessageEntry {
  const made: MessageEntry = { title: summaryLine(title, ENTRY_LIMITS.title) || 'Untitled' };
  // A link too long to be worth its room is left off; the title still names the item.
  if (url !== undefined && url.length <= ENTRY_LIMITS.url) made.url = url;
  if (detail !== undefined && detail !== '') made.detail = summaryLine(detail, ENTRY_LIMITS.detail);
  if (rank !== undefined) made.rank = rank;
  return made;
}

/** A ranked line: `3. <post name> — 120 votes · 14 comments`, linked to the post. */
export function rankedEntry(item: HeldItem, rank: number): MessageEntry {
  const message = item.message;
  const name = message.title.trim() === '' ? message.fallback : message.title;
  return entry(name, linkUrl(message.url), countsText(item), rank);
}

/**
 * A listed line: the item's one-line form (what a `compact` subscription shows, or the line it
 * already was), linked, with the local time it was found (and its numbers, for posts).
 */
export function listEntry(item: HeldItem, clock: DigestClock, reference: number): MessageEntry {
  const line =
    item.message.layout === 'line' ? item.message.title : formatMessage(item.message, 'compact').title;
  const found = clock.near(item.discoveredAt, reference);
  const counts = countsText(item);
  return entry(line, linkUrl(item.message.url), counts === undefined ? found : `${found} · ${counts}`);
}
