/** Quote characters a user may type; phones and Slack often turn `"` into typographic quotes. */
const CLOSING: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d',
  '\u201d': '\u201d',
  '\u2018': '\u2019',
  '\u2019': '\u2019',
};

export type TokenizeResult = { ok: true; tokens: string[] } | { ok: false; problem: string };

/**
 * Splits command text into words. Quotes (straight or typographic) keep spaces inside one
 * word; a backslash escapes the next character inside double quotes (the Discord adapter
 * quotes values that way). An unterminated quote is a problem, never a guess.
 */
export function tokenize(text: string): TokenizeResult {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let closing: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (closing !== undefined) {
      if (char === closing) {
        closing = undefined;
      } else if (char === '\\' && closing === '"' && i + 1 < text.length) {
        i += 1;
        current += text[i];
      } else {
        current += char;
      }
      continue;
    }
    const close = CLOSING[char];
    if (close !== undefined) {
      closing = close;
      inToken = true;
    } else if (/\s/.test(char)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
    } else {
      current += char;
      inToken = true;
    }
  }
  if (closing !== undefined) return { ok: false, problem: 'a quote is not closed' };
  if (inToken) tokens.push(current);
  return { ok: true, tokens };
}
