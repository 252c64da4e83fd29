import { precut, stripInvisibleFormatting, truncate } from '../../src/ports/index.js';

/**
 * Markdown escaping for the webhook kinds whose text is CommonMark-like: Teams (Adaptive Card
 * TextBlocks and facts) and Mattermost. CommonMark shows a backslash before ASCII punctuation as
 * the character alone, so escaping is safe to display. What is escaped: emphasis, code, links and
 * images (`[label](url)`, `![…]`), tables, strikethrough, and HTML-like tags (a Teams `<at>…</at>`
 * mention tag among them); line-start markers (headings, quotes, lists) only at a line's start.
 * Bare URLs are left whole so they still read as links. `@` followed by a word gets a zero-width
 * space after it, so `@channel`, `@all` or `@someone` never notifies on Mattermost. Invisible
 * formatting characters go first (a right-to-left override would reorder what people read), so
 * that zero-width space is ours.
 */

const URL_PATTERN = /https?:\/\/[^\s<>()[\]]+/g;
const INLINE_SPECIALS = /[\\*_~`|<>[\]()!{}]/g;
// Indentation within the line only (see adapters/discord/escape-markdown.ts for why not `\s*`).
const LINE_START = /^([^\S\n\r\u2028\u2029]*)(#+|>|-|\+|=+|\d+[.)])/gm;
const AT_WORD = /@(?=[\p{L}\p{N}_])/gu;

function escapeSegment(segment: string): string {
  return segment
    .replace(INLINE_SPECIALS, '\\$&')
    .replace(LINE_START, (_match, indent: string, marker: string) => `${indent}\\${marker}`)
    .replace(AT_WORD, '@\u200b');
}

/** `raw` as literal text in markdown: nothing in it links, formats, mentions or opens a tag. */
export function escapeMarkdownText(raw: string): string {
  const text = stripInvisibleFormatting(raw);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    out += escapeSegment(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + escapeSegment(text.slice(last));
}

/**
 * `raw` escaped and within `max` characters: the raw text is cut, never the escaped one (a cut
 * after a backslash would escape whatever follows), ending with an ellipsis when cut.
 */
export function escapeWithin(raw: string, max: number): string {
  const text = stripInvisibleFormatting(precut(raw, max)).trim();
  let cut = truncate(text, max);
  let escaped = escapeMarkdownText(cut);
  while (escaped.length > max && cut.length > 1) {
    cut = truncate(text, Math.max(1, cut.length - Math.max(1, escaped.length - max)));
    escaped = escapeMarkdownText(cut);
  }
  return escaped;
}

/**
 * Text for a link's label, `[label](url)`: escaped as above, and every `://` broken with
 * backslashes so no second link forms inside the first (a URL never holds `](`: the URL pattern
 * stops at brackets, which are then escaped).
 */
export function escapeLinkLabel(raw: string, max: number): string {
  return escapeWithin(raw, max).replace(/:\/\//g, ':\\/\\/');
}
