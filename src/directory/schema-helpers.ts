import { z } from 'zod';

/**
 * Building blocks for tolerant record schemas (REAL-WORLD.md): a field the bot truly needs
 * (an id, a name or body) must be valid or the record is skipped; every other field is
 * taken when it has a usable value and otherwise dropped, never an error.
 */

const REDACTED = '[REDACTED]';

/** Converts an ISO 8601 timestamp with any offset to ISO UTC; undefined when unparseable. */
export function toIsoUtc(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  // Only accept strings that look like a date: Date.parse is lenient with words and numbers.
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A record id: a non-negative integer (V1) or a non-empty string (V2), as a string. */
export const idSchema = z.union([
  z
    .number()
    .int()
    .nonnegative()
    .transform((n) => String(n)),
  z.string().trim().min(1),
]);

/** Same as {@link idSchema}, but a missing or unusable id becomes undefined. */
export const optionalId = z
  .unknown()
  .optional()
  .transform((value) => {
    const parsed = idSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  });

/** Required text (a name or body). */
export const requiredText = z.string();

/** A timestamp every record of its kind must have, normalised to ISO UTC. */
export const requiredTimestamp = z.string().transform((value, ctx) => {
  const iso = toIsoUtc(value);
  if (iso === undefined) {
    ctx.addIssue({ code: 'custom', message: `not an ISO 8601 timestamp: ${value.slice(0, 40)}` });
    return z.NEVER;
  }
  return iso;
});

/** Optional text: absent, null, `""` and non-strings all become undefined. */
export const optionalText = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' && value.trim() !== '' ? value : undefined));

/** Optional timestamp normalised to ISO UTC. */
export const optionalTimestamp = z.unknown().optional().transform(toIsoUtc);

/** Optional absolute http(s) URL; `[REDACTED]` and anything else become undefined. */
export const optionalUrl = z
  .unknown()
  .optional()
  .transform((value) => asHttpUrl(value));

/** Optional integer; numeric strings are accepted. */
export const optionalInt = z
  .unknown()
  .optional()
  .transform((value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
  });

/** Optional boolean. */
export const optionalBool = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'boolean' ? value : undefined));

/** Optional `YYYY-MM-DD` date. */
export const optionalDay = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined));

/** Returns the value when it is an absolute http(s) URL, else undefined. */
export function asHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  try {
    new URL(trimmed);
    return trimmed;
  } catch {
    return undefined;
  }
}

/** Preferred avatar sizes, large enough for a chat thumbnail but not a poster. */
const AVATAR_SIZES = ['96px', '88px', '100px', '110px', '120px', '80px', '73px', '64px', 'original'];

/**
 * Picks one URL from a V1 image map, which may hold all 30 sizes, only `original`, be `{}`,
 * null, or (in older records) a plain string.
 */
export function pickImage(value: unknown): string | undefined {
  if (typeof value === 'string') return asHttpUrl(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const map = value as Record<string, unknown>;
  for (const size of AVATAR_SIZES) {
    const url = asHttpUrl(map[size]);
    if (url) return url;
  }
  for (const candidate of Object.values(map)) {
    const url = asHttpUrl(candidate);
    if (url) return url;
  }
  return undefined;
}

/** Whether a user record is one of the redacted stand-ins the service returns since 2023. */
export function isRedacted(id: string, name: unknown, username: unknown): boolean {
  return id === '0' || name === REDACTED || username === REDACTED;
}

/** `T` with every property that may be undefined turned into an optional property. */
export type Compact<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops keys whose value is undefined, so results satisfy `exactOptionalPropertyTypes`. */
export function compact<T extends Record<string, unknown>>(value: T): Compact<T> {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined) out[key] = entry;
  }
  return out as Compact<T>;
}

/**
 * Parses each element of an array with `schema` and keeps the ones that pass; used for
 * nested lists (makers, topics) where one bad element must not cost the whole record.
 */
export function tolerantArray<T>(schema: z.ZodType<T>) {
  return z
    .unknown()
    .optional()
    .transform((value) => {
      if (!Array.isArray(value)) return [] as T[];
      const out: T[] = [];
      for (const element of value) {
        const parsed = schema.safeParse(element);
        if (parsed.success) out.push(parsed.data);
      }
      return out;
    });
}

/** A nested object that is dropped (not fatal to its parent) when it does not parse. */
export function tolerantObject<T>(schema: z.ZodType<T>) {
  return z
    .unknown()
    .optional()
    .transform((value) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    });
}
