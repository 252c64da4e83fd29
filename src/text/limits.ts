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
