const ELLIPSIS = '…';

/**
 * Shortens `text` to at most `max` UTF-16 code units, ending with an ellipsis when cut.
 * Never splits a surrogate pair, so emoji survive truncation intact.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  if (max === 1) return ELLIPSIS;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}

/** How far past what is shown {@link precut} keeps text: room for what stripping and collapsing remove. */
const PRECUT_FACTOR = 4;
const PRECUT_SLACK = 1024;

/**
 * `text` cut (with an ellipsis) to a generous bound above the `max` characters that will be
 * shown, before the passes that read every character: stripping invisible formatting,
 * collapsing whitespace, escaping. Upstream text has no length limit we control, so without this
 * a megabyte comment body costs a megabyte of work for a hundred characters of summary. Only a
 * text that is mostly invisible characters or whitespace can lose anything visible, and the
 * ellipsis still says it was cut.
 */
export function precut(text: string, max: number): string {
  return truncate(text, max * PRECUT_FACTOR + PRECUT_SLACK);
}

/** Returns the URL when it is an absolute http(s) URL, otherwise undefined (so `[REDACTED]` never becomes a link). */
export function sanitizeUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * {@link sanitizeUrl} for a URL placed inside link markup: `(`, `)` and `|` percent-encoded, as
 * Discord's `[label](url)` ends at a `)` and Slack's `<url|label>` at a `|`. Servers read the
 * encoded and the plain form alike.
 */
export function linkUrl(value: string | null | undefined): string | undefined {
  return sanitizeUrl(value)?.replace(/[()|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
