/** Literal key patterns for each backend's native scan: keys are data, never wildcards. */

/** A literal prefix for SQL LIKE … ESCAPE '\': `%`, `_` and `\` match only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQL LIKE for literal `parts` in order, each followed by any text. */
export function likePattern(parts: readonly string[]): string {
  return `${parts.map(escapeLike).join('%')}%`;
}

/** A literal prefix for a Redis MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]^]/g, (c) => `\\${c}`);
}
