import type { IdOrSlug } from './v2-resources.js';

/**
 * What the directory's own web links look like (the `url` fields of its records), read without
 * asking it: which record a pasted link names. Commands, link previews and `/directory why`
 * read links the same way.
 */

/** Slugs on the directory: letters, digits and dashes. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/i;
/** Usernames on the directory, optionally written with a leading `@`. */
export const USERNAME_PATTERN = /^@?[A-Za-z0-9_.-]+$/;

/** The text without the `<…>` or `<…|label>` a chat client may wrap a link in. */
export function unwrapChatLink(raw: string): string {
  return raw.trim().replace(/^<([^|>]+)(\|[^>]*)?>$/, '$1');
}

/** The link in a post reference, when it is one (`https://…/posts/slug`), else undefined. */
export function postLink(raw: string): URL | undefined {
  const text = unwrapChatLink(raw);
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * A post reference as users paste it: a numeric id, a slug, or a link to the post (whose
 * last path segment is the slug). Chat clients may wrap links in `<…>` or `<…|label>`.
 * Undefined when the text is none of these.
 */
export function parsePostRef(raw: string): IdOrSlug | undefined {
  const text = unwrapChatLink(raw);
  if (/^\d{1,20}$/.test(text)) return { id: text };
  if (/^https?:\/\//i.test(text)) {
    const url = postLink(raw);
    if (url === undefined) return undefined;
    const segments = url.pathname.split('/').filter((s) => s !== '');
    const last = segments.at(-1);
    if (last === undefined) return undefined;
    if (/^\d{1,20}$/.test(last)) return { id: last };
    return SLUG_PATTERN.test(last) && last.length <= 100 ? { slug: last.toLowerCase() } : undefined;
  }
  return SLUG_PATTERN.test(text) && text.length <= 100 ? { slug: text.toLowerCase() } : undefined;
}

/**
 * The pages of the directory's site that name one record: `/posts/<slug|id>`,
 * `/@<username>/collections/<slug>`, `/@<username>` and `/live/<slug>` (as the service's own
 * `url` fields give them); anything else on the site names none.
 */
export type LinkTarget =
  | { kind: 'post'; ref: IdOrSlug }
  | { kind: 'collection'; slug: string }
  | { kind: 'user'; username: string }
  | { kind: 'live'; slug: string };

/** A slug as the service's links carry it: letters, digits and dashes, at most 100. */
const slugOf = (segment: string | undefined): string | undefined =>
  segment !== undefined && SLUG_PATTERN.test(segment) && segment.length <= 100
    ? segment.toLowerCase()
    : undefined;

/** The record a link to the directory's site names, or undefined for any other page. */
export function linkTarget(url: URL): LinkTarget | undefined {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const [first, second, third, ...rest] = segments;
  if (rest.length > 0 || first === undefined) return undefined;
  if (first === 'posts' && third === undefined) {
    const ref = second === undefined ? undefined : parsePostRef(second);
    return ref === undefined ? undefined : { kind: 'post', ref };
  }
  if (first === 'live' && third === undefined) {
    const slug = slugOf(second);
    return slug === undefined ? undefined : { kind: 'live', slug };
  }
  if (!first.startsWith('@')) return undefined;
  const username = first.slice(1);
  if (username === '' || username.length > 50 || !USERNAME_PATTERN.test(username)) return undefined;
  if (second === undefined) return { kind: 'user', username };
  const slug = second === 'collections' ? slugOf(third) : undefined;
  return slug === undefined ? undefined : { kind: 'collection', slug };
}
