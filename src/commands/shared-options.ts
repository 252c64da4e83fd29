import { z } from 'zod';
import { parsePostRef, SLUG_PATTERN, USERNAME_PATTERN } from './arg-formats.js';
import type { OptionSpec } from './command-spec.js';

/** Option pieces several commands share, so the same argument reads the same everywhere. */

/**
 * Most results one reply carries: Discord shows at most 10 embeds per message, and a
 * longer list would not be read in a chat anyway.
 */
export const MAX_RESULTS = 10;

export const slug = (what: string) =>
  z.string().regex(SLUG_PATTERN, { error: `a ${what} slug: letters, digits and dashes` });

export const username = z.string().regex(USERNAME_PATTERN, { error: 'a username: letters, digits, _ . -' });

export const count = (max: number) =>
  z
    .number()
    .int()
    .min(1, { error: 'must be at least 1' })
    .max(max, { error: `must be at most ${max}` });

/** `--top N`, `--limit N`: how many results, 1 to MAX_RESULTS. */
export function resultCount(name: string, what: string): OptionSpec {
  return {
    name,
    description: `How many ${what} (1-${MAX_RESULTS}, default 5)`,
    type: 'integer',
    required: false,
    positional: false,
    minValue: 1,
    maxValue: MAX_RESULTS,
    schema: count(MAX_RESULTS),
  };
}

/** A post as users paste it: id, slug or a directory link. */
export const postRef: OptionSpec = {
  name: 'post',
  description: 'Post id, slug or link',
  type: 'string',
  required: true,
  positional: true,
  maxLength: 300,
  schema: z
    .string()
    .refine((value) => parsePostRef(value) !== undefined, { error: 'a post id, slug or directory link' }),
};

/** `<id>`: one subscription by the id `subscriptions` lists (pause, resume). */
export function subscriptionId(description: string): OptionSpec {
  return {
    name: 'id',
    description,
    type: 'string',
    required: true,
    positional: true,
    maxLength: 32,
    schema: z.string().regex(/^[a-z0-9-]+$/i, { error: 'a subscription id like s1a2b3c' }),
  };
}
