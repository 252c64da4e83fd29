import { ENTRY_LIMITS, entryWeight, type MessageEntry } from '../ports/index.js';

/**
 * Splits a digest's lines into parts, at item boundaries, each within {@link ENTRY_LIMITS}: at
 * most 20 lines and 3,400 weighted characters (an entry's rendered size on the tightest
 * platform, escaping included). A part that keeps to these fits one Slack message (50 blocks,
 * 3,000 characters a section) and one Discord message (a 4,096-character description, 6,000 in
 * all) as the real renderers draw them, so no line is ever cut or dropped by a renderer. Lines
 * are composed short enough (title, detail and link capped) that any one of them fits a part.
 */
export function splitEntries(entries: readonly MessageEntry[]): MessageEntry[][] {
  const parts: MessageEntry[][] = [];
  let current: MessageEntry[] = [];
  let weight = 0;
  for (const entry of entries) {
    const next = entryWeight(entry);
    if (
      current.length > 0 &&
      (current.length >= ENTRY_LIMITS.entries || weight + next > ENTRY_LIMITS.weight)
    ) {
      parts.push(current);
      current = [];
      weight = 0;
    }
    current.push(entry);
    weight += next;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** ` (2/3)` after the title of a digest in several parts; nothing for a single message. */
export function partMarker(index: number, count: number): string {
  return count > 1 ? ` (${index + 1}/${count})` : '';
}
