/**
 * The default offset V1 renders its timestamps and reads its dates in. The live service shows
 * Pacific offsets; a fixed -08:00 keeps output deterministic (no DST table) while still being
 * a non-UTC offset that clients must parse correctly. `startEmulator({ v1OffsetMinutes })`
 * picks another, so clients can be tested against services anywhere.
 */
export const V1_OFFSET_MINUTES = -8 * 60;

/** The offsets in use anywhere on Earth: UTC-12:00 (Baker Island) to UTC+14:00 (Kiribati). */
export const MIN_V1_OFFSET_MINUTES = -12 * 60;
export const MAX_V1_OFFSET_MINUTES = 14 * 60;

/** Whether `minutes` is a whole-minute offset between -12:00 and +14:00. */
export function isValidV1Offset(minutes: number): boolean {
  return Number.isInteger(minutes) && minutes >= MIN_V1_OFFSET_MINUTES && minutes <= MAX_V1_OFFSET_MINUTES;
}

/** Parses `+14:00`, `-12:00`, `+05:30` (or `Z`) into minutes; undefined when malformed or out of range. */
export function parseUtcOffset(text: string): number | undefined {
  if (text === 'Z') return 0;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [hours, minutes] = [Number(match[2]), Number(match[3])];
  if (minutes > 59) return undefined;
  const total = (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  return isValidV1Offset(total) ? total : undefined;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** Formats epoch ms as V1 does: ISO 8601 with milliseconds and a numeric offset. */
export function formatV1Timestamp(ms: number, offsetMinutes: number = V1_OFFSET_MINUTES): string {
  const shifted = new Date(ms + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}` +
    `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}` +
    `.${pad(shifted.getUTCMilliseconds(), 3)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The calendar day (`YYYY-MM-DD`) of an instant in the V1 offset. */
export function formatV1Date(ms: number, offsetMinutes: number = V1_OFFSET_MINUTES): string {
  return formatV1Timestamp(ms, offsetMinutes).slice(0, 10);
}

/** Formats epoch ms as a V2 `DateTime`: UTC, `Z`, no milliseconds. */
export function formatV2DateTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Parses a strict `YYYY-MM-DD` into the epoch ms of that day's start in the V1 offset, or
 * undefined when the text is not a real calendar date.
 */
export function parseV1Date(text: string, offsetMinutes: number = V1_OFFSET_MINUTES): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, day);
  const check = new Date(utc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return utc - offsetMinutes * 60_000;
}
