// What the directory's links look like is the directory's own (src/directory/web-links.ts).
export { parsePostRef, postLink, SLUG_PATTERN, USERNAME_PATTERN } from '../directory/index.js';

/** A real calendar day `YYYY-MM-DD` (rejects 2025-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** A month `YYYY-MM` with a month between 01 and 12. */
export function isCalendarMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/** Words of repeatable list options: `--keyword ai,ml --keyword "deep learning"`. */
export function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((word) => word.trim())
    .filter((word) => word !== '');
}
