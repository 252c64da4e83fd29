import type { IdOrSlug } from '../directory/index.js';

/** Slugs on the directory: letters, digits and dashes. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/i;
/** Usernames on the directory, optionally written with a leading `@`. */
export const USERNAME_PATTERN = /^@?[A-Za-z0-9_.-]+$/;

/** A real calendar day `YYYY-MM-DD` (rejects 2025-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** A month `YYYY-MM` with a month between 01 and 12. */
export function isCalendarMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/** The text without the `<…>` or `<…|label>` a chat client may wrap a link in. */
function unwrapChatLink(raw: string): string {
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

/** Words of repeatable list options: `--keyword ai,ml --keyword "deep learning"`. */
export function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((word) => word.trim())
    .filter((word) => word !== '');
}
