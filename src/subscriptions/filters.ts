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

/** The first filter an item fails, named as the option that set it, with what the item had. */
export interface UnmatchedFilter {
  /** The option, as typed: `--keyword`, `--min-votes`… */
  option: string;
  /** What the subscription asks for, e.g. `ai, ml` or `50`. */
  wanted: string;
  /** What the item had instead, in words: `it mentions none of them`, `it has 12 votes`. */
  had: string;
}

/**
 * Which filter keeps `item` out, in the order `matchesFilters` checks them, or undefined when it
 * passes them all. `matchesFilters` stays the routing path (no allocation per candidate); this is
 * for explaining one item (`/directory why`), and a test holds the two to the same answers.
 */
export function unmatchedFilter(item: FeedItem, filters: FeedFilters): UnmatchedFilter | undefined {
  const { facets } = item;
  if (filters.post && !facets.postRefs.includes(filters.post.toLowerCase()))
    return {
      option: '--post',
      wanted: filters.post,
      had:
        facets.postRefs.length > 0
          ? `it is on post ${[...new Set(facets.postRefs)].join(' / ')}`
          : 'it names no post',
    };
  if (filters.user && !facets.usernames.includes(filters.user.toLowerCase()))
    return {
      option: '--user',
      wanted: filters.user,
      had: facets.usernames.length > 0 ? `it is by ${facets.usernames.join(', ')}` : 'it names no author',
    };
  if (filters.keywords?.length && !filters.keywords.some((k) => containsWord(facets.text, k)))
    return {
      option: '--keyword',
      wanted: filters.keywords.join(', '),
      had: filters.keywords.length === 1 ? 'it does not mention it' : 'it mentions none of them',
    };
  const excluded = filters.exclude?.filter((k) => containsWord(facets.text, k)) ?? [];
  if (excluded.length > 0)
    return {
      option: '--exclude',
      wanted: filters.exclude?.join(', ') ?? '',
      had: `it mentions ${excluded.map((k) => `"${k}"`).join(' and ')}`,
    };
  if (filters.video && facets.liveVideo !== true)
    return { option: '--video', wanted: 'on camera', had: 'it is not on camera' };
  if (filters.minVotes !== undefined && (facets.votes ?? -1) < filters.minVotes)
    return {
      option: '--min-votes',
      wanted: String(filters.minVotes),
      had: facets.votes === undefined ? 'its votes are not known' : `it has ${facets.votes} votes`,
    };
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
