import { linkUrl, type MessageEntry, stripInvisibleFormatting, truncate } from '../../src/ports/index.js';
import { escapeMarkdown } from './escape-markdown.js';
import { DISCORD_LIMITS } from './limits.js';

/** Escaped title and detail of one line; above what a composer writes (ENTRY_LIMITS). */
const TITLE_MAX = 320;
const DETAIL_MAX = 130;

/**
 * Text for inside a link's `[label]`: every markdown character escaped, URLs included (escapeMarkdown
 * leaves URLs bare so they auto-link, but a `](` inside one would close the label and link
 * elsewhere), and `://` broken so no second link forms inside the first. At most doubles the text.
 */
function escapeLabel(raw: string): string {
  return stripInvisibleFormatting(raw)
    .replace(/[\\*_~`|<>[\]()#]/g, '\\$&')
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/@(everyone|here)/gi, '@\u200b$1');
}

/**
 * `raw` escaped and within `max` characters. The raw text is cut, never the escaped one: a cut
 * after a backslash would escape whatever follows it, such as the `]` that closes a link.
 */
function escapeWithin(raw: string, max: number, escapeText: (text: string) => string): string {
  let cut = truncate(raw, max);
  let escaped = escapeText(cut);
  while (escaped.length > max && cut.length > 1) {
    cut = truncate(raw, Math.max(1, cut.length - (escaped.length - max)));
    escaped = escapeText(cut);
  }
  return escaped;
}

/** One list line: `3. [title](url) — detail` (or `• …` unranked); the URL has `(`, `)` encoded. */
function entryLine(entry: MessageEntry): string {
  const title = escapeWithin(entry.title.trim() === '' ? 'Untitled' : entry.title, TITLE_MAX, escapeLabel);
  const url = linkUrl(entry.url);
  const linked = url !== undefined && url.length <= DISCORD_LIMITS.url ? `[${title}](${url})` : title;
  const detail = entry.detail?.trim() ? ` — ${escapeWithin(entry.detail, DETAIL_MAX, escapeMarkdown)}` : '';
  return `${entry.rank === undefined ? '•' : `${entry.rank}.`} ${linked}${detail}`;
}

/**
 * A message's list as description lines, whole lines only, within `room` characters. Lines that
 * do not fit are never cut (a cut line loses its link): the list ends with how many were left
 * off. Composers keep lists small enough that this never happens (ENTRY_LIMITS); it guards a
 * message composed elsewhere.
 */
export function renderEntryLines(entries: readonly MessageEntry[], room: number): string {
  const lines = entries.map(entryLine);
  const shown: string[] = [];
  let length = 0;
  for (const line of lines) {
    const next = length + (shown.length > 0 ? 1 : 0) + line.length;
    if (next > room) break;
    shown.push(line);
    length = next;
  }
  if (shown.length === lines.length) return shown.join('\n');
  const note = () => `…and ${lines.length - shown.length} more`;
  while (shown.length > 0 && [...shown, note()].join('\n').length > room) shown.pop();
  return [...shown, note()].join('\n');
}
