import { type IdOrSlug, idOrSlugOf, linkIn, SLUG_PATTERN, unwrapChatLink } from '../directory/index.js';

export { SLUG_PATTERN, USERNAME_PATTERN } from '../directory/index.js';

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

/** The link in a post reference, when it is one (`https://…/posts/slug`), else undefined. */
export const postLink: (raw: string) => URL | undefined = linkIn;

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
    return idOrSlugOf(
      url.pathname
        .split('/')
        .filter((s) => s !== '')
        .at(-1),
    );
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
