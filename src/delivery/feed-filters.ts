import { z } from 'zod';
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
