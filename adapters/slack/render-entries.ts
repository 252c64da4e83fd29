import { linkUrl, type MessageEntry } from '../../src/ports/index.js';
import { SLACK_LIMITS } from './block-limits.js';
import { escapeWithin } from './escape.js';

type SlackBlock = Record<string, unknown>;

/** Escaped title and detail of one line; far above what a composer writes (ENTRY_LIMITS), well under a section. */
const TITLE_MAX = 600;
const DETAIL_MAX = 200;
/** A longer link is left off (the title stays): any one line then fits a section with room to spare. */
const URL_MAX = 1_000;

/**
 * One list line as mrkdwn: `3. <url|title> — detail` (or `• …` unranked). The title is escaped
 * inside the link, so it can neither close the link nor open a mention; the URL has `|` encoded.
 */
function entryLine(entry: MessageEntry): string {
  const title = escapeWithin(entry.title.trim() === '' ? 'Untitled' : entry.title, TITLE_MAX);
  const url = linkUrl(entry.url);
  const linked = url !== undefined && url.length <= URL_MAX ? `<${url}|${title}>` : title;
  const detail = entry.detail?.trim() ? ` — ${escapeWithin(entry.detail, DETAIL_MAX)}` : '';
  return `${entry.rank === undefined ? '•' : `${entry.rank}.`} ${linked}${detail}`;
}

/**
 * A message's list as sections of whole lines, each section within Slack's 3,000 characters and
 * at most `maxBlocks` sections. Lines that do not fit are never cut (a cut line loses its link):
 * the last section ends with how many were left off. Composers keep lists small enough that this
 * never happens (ENTRY_LIMITS); it guards a message composed elsewhere.
 */
export function renderEntrySections(entries: readonly MessageEntry[], maxBlocks: number): SlackBlock[] {
  const sections: string[][] = [];
  let current: string[] = [];
  let length = 0;
  let shown = 0;
  const lines = entries.map(entryLine);
  for (const line of lines) {
    if (current.length > 0 && length + 1 + line.length > SLACK_LIMITS.sectionText) {
      if (sections.length + 1 >= maxBlocks) break;
      sections.push(current);
      current = [];
      length = 0;
    }
    current.push(line);
    length += (current.length > 1 ? 1 : 0) + line.length;
    shown += 1;
  }
  if (current.length > 0) sections.push(current);
  const last = sections.at(-1);
  if (shown < lines.length && last !== undefined) {
    const note = () => `…and ${lines.length - sections.flat().length} more`;
    while (last.length > 1 && [...last, note()].join('\n').length > SLACK_LIMITS.sectionText) last.pop();
    last.push(note());
  }
  return sections.map((section) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: section.join('\n'), verbatim: true },
  }));
}
