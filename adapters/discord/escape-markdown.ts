/**
 * Discord markdown escaping for user-supplied plain text.
 *
 * Discord's parser treats a backslash before any ASCII punctuation as an escape and drops the
 * backslash, so escaping punctuation is always safe to display. We escape what could fake
 * structure: emphasis, code, spoilers, masked links `[label](url)`, and the angle-bracket
 * forms of mentions, channels, roles, slash commands, custom emoji and timestamps. Line-start
 * markers (quotes, headings, lists) are escaped only at the start of a line, to keep ordinary
 * text readable. Bare URLs are left untouched so they still auto-link (escaping an underscore
 * inside a URL would put a backslash into the link).
 *
 * Both functions first drop bidi controls and other invisible formatting characters (a U+202E
 * would otherwise make `gnp.exe` read as `exe.png`), before adding the zero-width spaces of
 * their own that break `@everyone` and mention syntax.
 */

import { stripInvisibleFormatting } from '../../src/ports/index.js';

const URL_PATTERN = /https?:\/\/[^\s<>]+/g;
const INLINE_SPECIALS = /[\\*_~`|<>[\]()]/g;
// Indentation within the line only: a `\s*` that ran on over line breaks would rescan a long run
// of blank lines from every line start in it (quadratic).
const LINE_START = /^([^\S\n\r\u2028\u2029]*)(>|#|-|\+|\d+\.)/gm;
/** `@everyone` / `@here` are plain text to Discord; a zero-width space keeps them from reading as a ping. */
const BROADCAST = /@(everyone|here)/gi;

function escapeSegment(segment: string): string {
  return segment
    .replace(INLINE_SPECIALS, '\\$&')
    .replace(LINE_START, (_match, indent: string, marker: string) => `${indent}\\${marker}`)
    .replace(BROADCAST, '@\u200b$1');
}

/**
 * Escapes `text` so Discord renders it literally: no fake links, mentions, emphasis or quotes.
 * For fields Discord renders as markdown (content, embed title, description, field name/value).
 */
export function escapeMarkdown(raw: string): string {
  const text = stripInvisibleFormatting(raw);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    out += escapeSegment(text.slice(last, start)) + match[0];
    last = start + match[0].length;
  }
  return out + escapeSegment(text.slice(last));
}

/**
 * Neutralises mentions in text Discord shows WITHOUT markdown (embed footer, author name), where
 * a backslash would be displayed verbatim.
 */
export function neutralizeMentions(text: string): string {
  return stripInvisibleFormatting(text)
    .replace(BROADCAST, '@\u200b$1')
    .replace(/<([@#]|\/|a?:|t:)/g, '<\u200b$1');
}
