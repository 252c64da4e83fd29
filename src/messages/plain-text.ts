import { precut, stripInvisibleFormatting, truncate } from '../ports/index.js';

/** Longest `fallback` a composer produces: notification previews cut around here anyway. */
export const FALLBACK_MAX = 200;

// C0 and C1 control characters; whitespace among them is collapsed first.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** One line of plain text: whitespace (newlines, tabs) collapsed, control characters removed. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').replace(CONTROL, '').trim();
}

/**
 * A one-line summary of at most `max` characters, safe to show where layout is minimal. It is cut
 * mid-text, so a bidi override opened there would never be closed and would flip whatever the
 * client shows next to it: summaries drop bidi controls and other invisible formatting
 * (renderers drop them again from everything they show).
 */
export function summaryLine(text: string, max: number = FALLBACK_MAX): string {
  return truncate(stripInvisibleFormatting(singleLine(precut(text, max))), max);
}

/** A short quotation of user text for a summary, e.g. the start of a comment body. */
export function excerpt(text: string, max: number): string {
  return truncate(stripInvisibleFormatting(singleLine(precut(text, max))), max);
}

/** `"Name"` for a summary line, never an empty pair of quotes. */
export function quoted(text: string, max = 80): string {
  return `"${excerpt(text, max)}"`;
}
