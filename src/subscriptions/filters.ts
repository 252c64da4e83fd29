import { z } from 'zod';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';

/** Filters a subscription applies in the bot, after the feed fetched its items. */
export interface FeedFilters {
  /** comments: only comments on this post (id or slug). */
  post?: string;
  /** posts/comments/collections: only items by this username. */
  user?: string;
  /** Any of these words must appear (case-insensitive). */
  keywords?: string[];
  /** None of these words may appear (case-insensitive). */
  exclude?: string[];
  /** live: only on-camera events. */
  video?: boolean;
  /** posts: only posts with at least this many votes. */
  minVotes?: number;
  /** live: also post a reminder this many minutes before the start; 0 = none. */
  remindMinutes?: number;
}

const word = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'at most 100 characters' });

export const feedFiltersSchema = z.strictObject({
  post: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/i, { error: 'a post id or slug (letters, digits, dashes)' })
    .optional(),
  user: z
    .string()
    .trim()
    .regex(/^@?[A-Za-z0-9_.-]{1,50}$/, { error: 'a username (letters, digits, _ . -)' })
    .transform((value) => value.replace(/^@/, ''))
    .optional(),
  keywords: z.array(word).max(20, { error: 'at most 20 keywords' }).optional(),
  exclude: z.array(word).max(20, { error: 'at most 20 excluded words' }).optional(),
  video: z.boolean().optional(),
  minVotes: z.number().int().min(0).max(1_000_000).optional(),
  remindMinutes: z.number().int().min(0).max(1440).optional(),
});

const FEED_SPECIFIC: Partial<Record<keyof FeedFilters, readonly FeedName[]>> = {
  post: ['comments'],
  user: ['posts', 'comments', 'collections'],
  video: ['live'],
  minVotes: ['posts'],
  remindMinutes: ['live'],
};

/** Names the filters that make no sense for `feed` (e.g. `video` on comments). */
export function filtersNotApplicable(feed: FeedName, filters: FeedFilters): string[] {
  return (Object.keys(filters) as (keyof FeedFilters)[]).filter((key) => {
    const allowed = FEED_SPECIFIC[key];
    return allowed !== undefined && filters[key] !== undefined && !allowed.includes(feed);
  });
}

/** Human-readable summary, e.g. `keyword "ai", not "crypto", ≥ 50 votes`. */
export function describeFilters(filters: FeedFilters): string {
  const parts: string[] = [];
  if (filters.post) parts.push(`on post ${filters.post}`);
  if (filters.user) parts.push(`by ${filters.user}`);
  if (filters.keywords?.length)
    parts.push(`mentioning ${filters.keywords.map((k) => `"${k}"`).join(' or ')}`);
  if (filters.exclude?.length)
    parts.push(`not mentioning ${filters.exclude.map((k) => `"${k}"`).join(' or ')}`);
  if (filters.video) parts.push('on camera only');
  if (filters.minVotes !== undefined) parts.push(`with at least ${filters.minVotes} votes`);
  if (filters.remindMinutes) parts.push(`reminder ${filters.remindMinutes} min before`);
  return parts.join(', ');
}

/** Whether `item` passes every filter (the keyword ones on word boundaries, see containsWord). */
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

/** Which filter an item failed (as `/directory subscribe` names the option), and what it had instead. */
export interface FilterMiss {
  /** `--keyword "ai" or "ml"`: the option and its value, as typed. */
  filter: string;
  /** `it mentions none of them`: what the item had. */
  had: string;
}

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(' or ');

/**
 * The first filter `item` fails, and what it had instead; undefined exactly when `matchesFilters`
 * lets it through (same checks, same order). For `/directory why`: numbers are the item's as
 * looked up now, which may differ from when it was polled.
 */
export function filterMiss(item: FeedItem, filters: FeedFilters): FilterMiss | undefined {
  const { facets } = item;
  if (filters.post && !facets.postRefs.includes(filters.post.toLowerCase())) {
    const on = facets.postRefs.find((ref) => !/^\d+$/.test(ref)) ?? facets.postRefs[0];
    return { filter: `--post ${filters.post}`, had: on ? `it is on post ${on}` : 'it names no post' };
  }
  if (filters.user && !facets.usernames.includes(filters.user.toLowerCase())) {
    const by = facets.usernames.map((u) => `@${u}`).join(', ');
    return { filter: `--user ${filters.user}`, had: by ? `it is by ${by}` : 'its author is not shown' };
  }
  if (filters.keywords?.length && !filters.keywords.some((k) => containsWord(facets.text, k)))
    return { filter: `--keyword ${quoted(filters.keywords)}`, had: 'it mentions none of them' };
  const excluded = filters.exclude?.filter((k) => containsWord(facets.text, k)) ?? [];
  if (excluded.length > 0)
    return { filter: `--exclude ${quoted(filters.exclude ?? [])}`, had: `it mentions ${quoted(excluded)}` };
  if (filters.video && facets.liveVideo !== true) return { filter: '--video', had: 'it is not on camera' };
  if (filters.minVotes !== undefined && (facets.votes ?? -1) < filters.minVotes) {
    const votes =
      facets.votes === undefined
        ? 'no vote count'
        : `${facets.votes} vote${facets.votes === 1 ? '' : 's'} now`;
    return { filter: `--min-votes ${filters.minVotes}`, had: `it has ${votes}` };
  }
  return undefined;
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
