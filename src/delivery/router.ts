import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedFilters } from './feed-filters.js';
import type { Subscription } from './subscriptions.js';

export interface RoutingOptions {
  now: number;
  /** Reminder lead time for live subscriptions that did not choose one; 0 = no reminders. */
  defaultRemindMinutes: number;
}

/** The subscriptions that should receive `item`, at most one per destination. */
export function routeItem(
  item: FeedItem,
  subscriptions: readonly Subscription[],
  options: RoutingOptions,
): Subscription[] {
  const chosen = new Map<string, Subscription>();
  for (const subscription of subscriptions) {
    if (subscription.feed !== item.feed || subscription.paused) continue;
    // Never deliver what was found before the subscription existed: no history flood.
    if (item.event === 'new' && item.discoveredAt < subscription.createdAt) continue;
    if (!matchesFilters(item, subscription.filters)) continue;
    if (item.event === 'reminder' && !reminderDue(item, subscription, options)) continue;
    const destination = destinationKey(subscription.platform, subscription.channelId);
    if (!chosen.has(destination)) chosen.set(destination, subscription);
  }
  return [...chosen.values()];
}

export function matchesFilters(item: FeedItem, filters: FeedFilters): boolean {
  const { facets } = item;
  if (filters.post && !facets.postRefs.includes(filters.post.toLowerCase())) return false;
  if (filters.user && !facets.usernames.includes(filters.user.toLowerCase())) return false;
  if (filters.keywords?.length && !filters.keywords.some((k) => containsWord(facets.text, k))) return false;
  if (filters.exclude?.some((k) => containsWord(facets.text, k))) return false;
  if (filters.video && facets.liveVideo !== true) return false;
  if (filters.minVotes !== undefined && (facets.votes ?? -1) < filters.minVotes) return false;
  return true;
}

function reminderDue(item: FeedItem, subscription: Subscription, options: RoutingOptions): boolean {
  if (item.record.type !== 'live' || item.record.event.startsAt === null) return false;
  const minutes = subscription.filters.remindMinutes ?? options.defaultRemindMinutes;
  if (minutes <= 0) return false;
  const startsAt = Date.parse(item.record.event.startsAt);
  return startsAt > options.now && startsAt - options.now <= minutes * 60_000;
}

const WORD = /^[\p{L}\p{N}_]+$/u;
const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;

/**
 * Case-insensitive match on word boundaries, so "ai" matches "AI tools" but not "said".
 * Keywords with non-word characters (c++, node.js) match as plain substrings. `text` is the
 * item's lower-cased text. A search and a look at the characters either side, not a RegExp
 * built per keyword: with thousands of distinct keywords V8's regexp cache keeps few of them,
 * and compiling one per candidate made routing slower as subscriptions grew.
 */
function containsWord(text: string, keyword: string): boolean {
  const needle = keyword.toLowerCase();
  if (!WORD.test(needle)) return text.includes(needle);
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (!wordCharacterBefore(text, at) && !wordCharacterAt(text, at + needle.length)) return true;
  }
  return false;
}

/** Whether the code point ending just before `index` is a letter, digit or `_`. */
function wordCharacterBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const low = text.charCodeAt(index - 1);
  const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return wordCharacterAt(text, pair ? index - 2 : index - 1);
}

/** Whether the code point starting at `index` is a letter, digit or `_`. */
function wordCharacterAt(text: string, index: number): boolean {
  const codePoint = text.codePointAt(index);
  return codePoint !== undefined && WORD_CHARACTER.test(String.fromCodePoint(codePoint));
}

export function destinationKey(platform: string, channelId: string): string {
  return `${platform}:${channelId}`;
}
