/**
 * The offset V1 renders its timestamps in. The live service shows Pacific offsets; a fixed
 * -08:00 keeps output deterministic (no DST table) while still being a non-UTC offset that
 * clients must parse correctly.
 */
export const V1_OFFSET_MINUTES = -8 * 60;

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
export function parseV1Date(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = Date.UTC(year, month - 1, day);
  const check = new Date(utc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return utc - V1_OFFSET_MINUTES * 60_000;
}
