import { invalidParameter } from './api-error.js';
import type { LiveEventRecord } from './model.js';
import { formatV1Timestamp } from './time-format.js';
import type { V1Request, V1Result } from './v1-route.js';
import { serializeLiveEvent } from './v1-serializers.js';

/** Default page size of GET /v1/live (spec section 8). */
export const LIVE_DEFAULT_PER_PAGE = 20;

/**
 * GET /v1/live (spec 4.7). Events are ordered by `starts_at` ascending (soonest first) with
 * undated events last, ties by id. `older`/`newer` and `search[date]` compare calendar days
 * and months in the service's offset (`ctx.offsetMinutes`), as the live service does in
 * Pacific time: `older` is before that day, `newer` from that day on, and `newer` keeps
 * undated events as the spec says. `limit` is accepted and ignored.
 */
export function listLiveEvents({ params, store, ctx }: V1Request): V1Result {
  const perPage = params.perPage(LIVE_DEFAULT_PER_PAGE);
  const offset = params.int('offset', 0) ?? 0;
  const olderDay = params.date('older');
  const newerDay = params.date('newer');
  const month = parseMonth(params.string('search[date]'));
  const liveVideo = params.bool('search[live_video]') ?? false;
  const slug = params.string('search[slug]');

  const matching = [...store.liveEvents.values()].filter((event) => {
    const at = event.startsAt;
    if (olderDay !== undefined && (at === null || at >= olderDay)) return false;
    // "newer than the date": at or after the start of that day, so `newer=<today>` still lists
    // today's later events; undated events are included, as the spec says.
    if (newerDay !== undefined && at !== null && at < newerDay) return false;
    if (month === false && at !== null) return false;
    if (
      typeof month === 'string' &&
      (at === null || formatV1Timestamp(at, ctx.offsetMinutes).slice(0, 7) !== month)
    )
      return false;
    if (liveVideo && !event.liveVideo) return false;
    if (slug !== undefined && event.slug !== slug) return false;
    return true;
  });
  matching.sort(byStart);
  const liveEvents = matching.slice(offset, offset + perPage).map((e) => serializeLiveEvent(e, ctx));
  return { body: { live_events: liveEvents }, etag: 'strong' };
}

/** `search[date]`: `YYYY-MM`, or `false` for undated events. */
function parseMonth(raw: string | undefined): string | false | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'false') return false;
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(raw);
  if (!match) throw invalidParameter('search[date]', `must be YYYY-MM or false, got ${JSON.stringify(raw)}`);
  return raw;
}

function byStart(a: LiveEventRecord, b: LiveEventRecord): number {
  if (a.startsAt === null || b.startsAt === null) {
    if (a.startsAt === b.startsAt) return a.id - b.id;
    return a.startsAt === null ? 1 : -1;
  }
  return a.startsAt - b.startsAt || a.id - b.id;
}
