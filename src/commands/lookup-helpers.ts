import type { IdOrSlug } from '../directory/index.js';
import { parsePostRef } from './arg-formats.js';
import type { ParsedArgs } from './command-spec.js';
import { errorReply } from './replies.js';

/** What the lookup commands share: reading their arguments and wording their answers. */

/** Lookups show records someone asked for, often old ones: never labelled "new". */
export const LOOKUP = { occasion: 'lookup' } as const;

/** How many results a lookup shows when the asker does not say. */
export const DEFAULT_COUNT = 5;

export const stringArg = (args: ParsedArgs, name: string): string | undefined => {
  const value = args[name];
  return typeof value === 'string' ? value : undefined;
};

export const intArg = (args: ParsedArgs, name: string, fallback: number): number => {
  const value = args[name];
  return typeof value === 'number' ? value : fallback;
};

export const describeRef = (ref: IdOrSlug): string => ('id' in ref ? `id ${ref.id}` : `slug ${ref.slug}`);

/** The post reference as a cache key part: `post 42` and `post <link to 42>` share an answer. */
export const refKey = (ref: IdOrSlug): string => ('id' in ref ? `id:${ref.id}` : `slug:${ref.slug}`);

export const notFound = (text: string) => errorReply('upstream_not_found', text);

/** The `post` argument as an id or slug. */
export function postRefArg(args: ParsedArgs): IdOrSlug {
  // The parser validated the reference already; this only converts it.
  return parsePostRef(stringArg(args, 'post') ?? '') ?? { slug: '' };
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
