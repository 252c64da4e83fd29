import { precut, stripInvisibleFormatting, truncate } from '../../src/ports/index.js';

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
 * never be formed from it, and a bidi override or other invisible character can never reorder or
 * hide what people read. Invisible characters go first, so the zero-width space that breaks a
 * broadcast word is ours and survives.
 */
export function escapeSlackText(text: string): string {
  return escapeControlCharacters(stripInvisibleFormatting(text)).replace(BROADCAST_WORD, '@\u200b$1');
}

/**
 * Escapes `text` and fits the escaped result within `max` characters, cutting the raw text (never
 * an entity such as `&amp;` in half) and ending with an ellipsis when cut.
 */
export function escapeWithin(raw: string, max: number): string {
  // Dropping invisible characters is the one step that shortens text; done first, the rest only
  // grows it. A text far longer than `max` is cut first, so the work is bounded by `max`.
  const text = stripInvisibleFormatting(precut(raw, max));
  // Escaping never shortens text, so a text longer than `max` cannot fit whole.
  if (text.length <= max) {
    const escaped = escapeSlackText(text);
    if (escaped.length <= max) return escaped;
  }
  // Escaping only grows text, so the raw cut lies at or below `max`: find the longest raw
  // prefix whose escaped form (with its ellipsis) still fits. Cutting raw text never halves an entity.
  let low = 1;
  let high = max;
  let best = '…';
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const candidate = escapeSlackText(truncate(text, mid));
    if (candidate.length <= max) {
      best = candidate;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}
