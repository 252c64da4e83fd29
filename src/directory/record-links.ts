import type { IdOrSlug } from './v2-resources.js';

/** Slugs on the directory: letters, digits and dashes. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/i;
/** Usernames on the directory, optionally written with a leading `@`. */
export const USERNAME_PATTERN = /^@?[A-Za-z0-9_.-]+$/;

/**
 * The record a page of the directory's site names, as the service's own `url` fields give them:
 * `/posts/<slug|id>` (a comment: `?comment=<id>` on its post's page), `/@<username>`,
 * `/@<username>/collections/<slug>`, `/live/<slug>` and `/notifications/<id>`.
 */
export type LinkedRecord =
  | { kind: 'post'; ref: IdOrSlug }
  | { kind: 'comment'; id: string; post: IdOrSlug }
  | { kind: 'collection'; slug: string; username: string }
  | { kind: 'user'; username: string }
  | { kind: 'live'; slug: string }
  | { kind: 'notification'; id: string };

/** The text without the `<…>` or `<…|label>` a chat client may wrap a link in. */
export function unwrapChatLink(raw: string): string {
  return raw.trim().replace(/^<([^|>]+)(\|[^>]*)?>$/, '$1');
}

/** The link in what someone typed (`https://…`, or as a chat client wraps it), else undefined. */
export function linkIn(raw: string): URL | undefined {
  const text = unwrapChatLink(raw);
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** An id (digits) or a slug as a path segment carries it; undefined for anything else. */
export function idOrSlugOf(segment: string | undefined): IdOrSlug | undefined {
  if (segment === undefined) return undefined;
  if (/^\d{1,20}$/.test(segment)) return { id: segment };
  return SLUG_PATTERN.test(segment) && segment.length <= 100 ? { slug: segment.toLowerCase() } : undefined;
}

/** A slug as the service's links carry it: letters, digits and dashes, at most 100. */
const slugOf = (segment: string | undefined): string | undefined => {
  const ref = idOrSlugOf(segment);
  return ref === undefined ? undefined : 'slug' in ref ? ref.slug : ref.id;
};

/** The record a link to the directory's site names, or undefined for any other page. */
export function linkedRecord(url: URL): LinkedRecord | undefined {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const [first, second, third, ...rest] = segments;
  if (rest.length > 0 || first === undefined) return undefined;
  if (first === 'posts' && third === undefined) {
    const ref = idOrSlugOf(second);
    if (ref === undefined) return undefined;
    const comment = url.searchParams.get('comment');
    return comment !== null && /^\d{1,20}$/.test(comment)
      ? { kind: 'comment', id: comment, post: ref }
      : { kind: 'post', ref };
  }
  if (first === 'live' && third === undefined) {
    const slug = slugOf(second);
    return slug === undefined ? undefined : { kind: 'live', slug };
  }
  if (first === 'notifications' && third === undefined) {
    return second !== undefined && /^\d{1,20}$/.test(second)
      ? { kind: 'notification', id: second }
      : undefined;
  }
  if (!first.startsWith('@')) return undefined;
  const username = first.slice(1);
  if (username === '' || username.length > 50 || !USERNAME_PATTERN.test(username)) return undefined;
  if (second === undefined) return { kind: 'user', username };
  const slug = second === 'collections' ? slugOf(third) : undefined;
  return slug === undefined ? undefined : { kind: 'collection', slug, username };
}

/** The last path segment of a link, lower-cased (a live event's slug in its `url`); undefined when none. */
export function lastSegmentOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).pathname
      .split('/')
      .filter((s) => s !== '')
      .at(-1)
      ?.toLowerCase();
  } catch {
    return undefined;
  }
}
