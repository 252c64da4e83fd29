import type { MessageField } from '../ports/index.js';

const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** `1234` → `1,234`; one fixed locale so every platform and test sees the same text. */
export function formatCount(value: number): string {
  return COUNT_FORMAT.format(value);
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An instant as readable UTC text, e.g. `Fri 10 Mar 2017, 18:00 UTC`. Built by hand rather
 * than with `toLocaleString` so the text does not depend on the host's locale or ICU data.
 */
export function formatInstant(iso: string): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/**
 * A calendar day as readable text, e.g. `8 Mar 2017`, from an ISO instant or `YYYY-MM-DD`.
 * An instant gives its UTC day, like every time the bot writes; a bare date is a day the
 * directory named in its own calendar (V1 `day`, the launch day) and is shown as given,
 * since moving a date without a time to another zone would invent one.
 */
export function formatDay(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return undefined;
  const [, year, month, day] = match;
  const monthName = MONTHS[Number(month) - 1];
  if (monthName === undefined) return undefined;
  // An instant with an offset may fall on another UTC day; take the UTC day for instants.
  if (value.length > 10) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) return undefined;
    const date = new Date(ms);
    return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  }
  return `${Number(day)} ${monthName} ${year}`;
}

/** "in 15 minutes", "in 2 hours", "in 3 days": how far ahead an instant is, roughly. */
export function formatLeadTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'now';
  if (minutes < 90) return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} hours`;
  return `in ${Math.round(hours / 24)} days`;
}

/**
 * Collects fields, leaving out every absent or blank value so a message never shows
 * "undefined", "NaN" or an empty row.
 */
export class FieldList {
  readonly #fields: MessageField[] = [];

  /** Adds a field when `value` is a non-blank string. */
  text(name: string, value: string | undefined, inline = true): this {
    if (value !== undefined && value.trim() !== '') this.#fields.push({ name, value, inline });
    return this;
  }

  /** Adds a count when it is a finite number. */
  count(name: string, value: number | undefined, inline = true): this {
    if (value !== undefined && Number.isFinite(value)) this.text(name, formatCount(value), inline);
    return this;
  }

  /** The fields, or undefined when there are none (so `fields` is left off the message). */
  build(): MessageField[] | undefined {
    return this.#fields.length > 0 ? [...this.#fields] : undefined;
  }
}
