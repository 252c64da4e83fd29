import { truncate } from '../../src/ports/index.js';

/**
 * Slack's three control characters. `&` first so nothing is encoded twice
 * (https://api.slack.com/reference/surfaces/formatting#escaping).
 */
function escapeControlCharacters(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Plain `@here`, `@channel`, `@everyone` (and legacy `@group`) only notify when a client asks for
 * `link_names`/`parse=full`, which we never do; a zero-width space after the `@` keeps them inert
 * even if a later Slack change or a re-post through another tool parses them.
 */
const BROADCAST_WORD = /@(here|channel|everyone|group)\b/gi;

/**
 * Escapes user-supplied plain text for any Slack text object (mrkdwn or plain_text) or the
 * `text` fallback, so `<!channel>`, `<@U…>`, `<#C…>`, `<!subteam^…>` and `<url|label>` links can
 * never be formed from it.
 */
export function escapeSlackText(text: string): string {
  return escapeControlCharacters(text).replace(BROADCAST_WORD, '@\u200b$1');
}

/**
 * Escapes `text` and fits the escaped result within `max` characters, cutting the raw text (never
 * an entity such as `&amp;` in half) and ending with an ellipsis when cut.
 */
export function escapeWithin(text: string, max: number): string {
  const escaped = escapeSlackText(text);
  if (escaped.length <= max) return escaped;
  // Escaping only ever grows text, so shrink the raw budget by the overshoot until it fits.
  let budget = max;
  for (;;) {
    const candidate = escapeSlackText(truncate(text, budget));
    if (candidate.length <= max || budget <= 1) return candidate.length <= max ? candidate : '…';
    budget -= Math.max(1, candidate.length - max);
  }
}
