import { invalidParameter } from './api-error.js';
import { parseV1Date, V1_OFFSET_MINUTES } from './time-format.js';

/** The V1 `per_page` ceiling (spec section 8). */
export const MAX_PER_PAGE = 50;

/**
 * Typed, validated access to V1 query parameters. Every accessor throws a 400
 * `invalid_parameter` naming the parameter, so a typo never silently changes a result.
 * Parameters the spec does not list are ignored, as the live service does.
 */
export class V1Params {
  /**
   * @param search the query string
   * @param offsetMinutes the service's offset, in which dates name calendar days
   */
  constructor(
    private readonly search: URLSearchParams,
    private readonly offsetMinutes: number = V1_OFFSET_MINUTES,
  ) {}

  has(name: string): boolean {
    return this.search.has(name);
  }

  string(name: string): string | undefined {
    const value = this.search.get(name);
    return value === null ? undefined : value;
  }

  /** A whole number within [min, max]. */
  int(name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const raw = this.search.get(name);
    if (raw === null) return undefined;
    if (!/^\d+$/.test(raw))
      throw invalidParameter(name, `must be a whole number, got ${JSON.stringify(raw)}`);
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw invalidParameter(name, `must be between ${min} and ${max}, got ${raw}`);
    }
    return value;
  }

  /** A positive record id. */
  id(name: string): number | undefined {
    const raw = this.search.get(name);
    if (raw === null) return undefined;
    if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
      throw invalidParameter(name, `must be a positive integer id, got ${JSON.stringify(raw)}`);
    }
    return Number(raw);
  }

  /** `true`/`false` (also `1`/`0`). */
  bool(name: string): boolean | undefined {
    const raw = this.search.get(name);
    if (raw === null) return undefined;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    throw invalidParameter(name, `must be true or false, got ${JSON.stringify(raw)}`);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const raw = this.search.get(name);
    if (raw === null) return undefined;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw invalidParameter(name, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
    }
    return raw as T;
  }

  /** A strict `YYYY-MM-DD` date, as the start of that day in the service's offset. */
  date(name: string): number | undefined {
    const raw = this.search.get(name);
    if (raw === null) return undefined;
    const ms = parseV1Date(raw, this.offsetMinutes);
    if (ms === undefined)
      throw invalidParameter(name, `must be a date YYYY-MM-DD, got ${JSON.stringify(raw)}`);
    return ms;
  }

  /** `per_page`: 1..50, with an endpoint default. */
  perPage(defaultSize: number): number {
    return this.int('per_page', 1, MAX_PER_PAGE) ?? defaultSize;
  }
}
