import type { z } from 'zod';
import { type FeedName, isFeedName } from '../feeds/feed-names.js';
import { isMessageFormat, MAX_MENTIONS, type MentionTarget, type MessageFormat } from '../ports/index.js';
import type { ScheduleOptions } from '../schedule/index.js';
import { buildSchedule, SCHEDULE_OPTION_NAMES, type ScheduleInput } from '../schedule/index.js';
import { BACKFILL_LIMITS, BACKFILL_PROBLEM } from './backfill.js';
import { type FeedFilters, feedFiltersSchema, filtersNotApplicable } from './filters.js';
import { type Addressing, parseMentionTarget, parseSenderAvatar, parseSenderName } from './mentions.js';
import { isOnRemoval } from './subscription.js';
import { parseThreadParams, type ThreadSettings, threadCommentsScheduleConflict } from './thread-options.js';

/** One static route from the SUBSCRIPTIONS variable. */
export interface SubscriptionSeed extends Addressing {
  /**
   * `slack`, `discord`, `console`, or `webhook` for a named webhook (`webhook:<name>`), which the
   * app resolves to the webhook's own platform (`discord-webhook`, `teams-webhook`…) before seeding.
   */
  platform: string;
  channelId: string;
  /** Where a webhook's pacing is shared (a Slack webhook's team), set when a webhook is resolved. */
  workspaceId?: string;
  feed: FeedName;
  filters: FeedFilters;
  /** `format=` in the entry; absent: full. */
  format?: MessageFormat;
  /** `threads=off`, `thread-comments=true`, `broadcast=true` in the entry; absent: the defaults. */
  threading?: ThreadSettings;
  /** `on-removal=delete` in the entry; absent (or `mark`): a removed item's message is marked. */
  onRemoval?: 'delete';
  /** `digest=`, `quiet=`, `max-per-hour=`… in the entry; absent: each item as soon as found. */
  schedule?: ScheduleOptions;
  /** `backfill=N` in the entry: the N most recent matching items, posted once when the route is added. */
  backfill?: number;
}

/**
 * A webhook's name: lower-case letters and digits, single dashes between them, at most 32. Its URL
 * is in the variable `WEBHOOK_<NAME>_URL` (see `webhookVariable`), so two names never share one.
 */
export const WEBHOOK_NAME = /^(?=.{1,32}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The variable holding webhook `name`'s `part` (`URL`, `SECRET`): `news-eu` → `WEBHOOK_NEWS_EU_URL`. */
export function webhookVariable(name: string, part: 'URL' | 'SECRET'): string {
  return `WEBHOOK_${name.toUpperCase().replaceAll('-', '_')}_${part}`;
}

/** The platforms a SUBSCRIPTIONS entry may name. */
type SeedPlatform = 'slack' | 'discord' | 'console' | 'webhook';

const CHANNEL_PATTERNS: Record<SeedPlatform, RegExp> = {
  slack: /^[CGD][A-Z0-9]{6,}$/,
  discord: /^\d{17,20}$/,
  console: /^[A-Za-z0-9_-]{1,64}$/,
  webhook: WEBHOOK_NAME,
};

const FILTER_KEYS: Record<string, keyof FeedFilters> = {
  post: 'post',
  user: 'user',
  keyword: 'keywords',
  keywords: 'keywords',
  exclude: 'exclude',
  video: 'video',
  'min-votes': 'minVotes',
  min_votes: 'minVotes',
  remind: 'remindMinutes',
};

/**
 * Parses `platform:channel=feed?key=value&…` entries separated by `;` or new lines, e.g.
 * `slack:C0123ABCD=comments?keyword=ai,ml&exclude=crypto&format=compact;discord:112233445566778899=live?video=true`.
 * `format` (full, compact or title) sits among the filters but is how items look, not which;
 * `on-removal` (mark or delete) what happens to the message of an item removed upstream;
 * the schedule options (`digest`, `top`, `digest-empty`, `quiet`, `quiet-strict`, `max-per-hour`,
 * `max-per-day`, `tz`) say when they are posted, as the `/directory subscribe` options do;
 * `backfill=N` posts the N most recent matching items once, when the route is first added.
 * Returns every malformed entry as an error naming it, so one typo never hides the others.
 */
export function parseSubscriptionSpec(spec: string): { seeds: SubscriptionSeed[]; errors: string[] } {
  const seeds: SubscriptionSeed[] = [];
  const errors: string[] = [];
  const entries = spec
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  for (const entry of entries) {
    const result = parseEntry(entry);
    if (typeof result === 'string') errors.push(`"${entry}": ${result}`);
    else seeds.push(result);
  }
  return { seeds, errors };
}

function parseEntry(entry: string): SubscriptionSeed | string {
  const match = /^([a-z]+):([^=\s]+)=([a-z]+)(?:\?(.*))?$/.exec(entry);
  if (!match) return 'expected platform:channel=feed[?filters], e.g. slack:C0123ABCD=comments';
  const [, platform = '', channelId = '', feed = '', query] = match;
  if (platform !== 'slack' && platform !== 'discord' && platform !== 'console' && platform !== 'webhook') {
    return `unknown platform "${platform}" (slack, discord, console or webhook)`;
  }
  if (!CHANNEL_PATTERNS[platform].test(channelId)) {
    return platform === 'slack'
      ? `"${channelId}" is not a Slack channel id (like C0123ABCD)`
      : platform === 'discord'
        ? `"${channelId}" is not a Discord channel id (17 to 20 digits)`
        : platform === 'webhook'
          ? `"${channelId}" is not a webhook name (lower-case letters, digits and single dashes, at most 32)`
          : `"${channelId}" is not a console channel name`;
  }
  return parseRoute(platform, channelId, feed, query);
}

/**
 * The part after `platform:channel=`: the feed and its `?key=value` options, as a seed for that
 * destination. Shared with `directory-bot webhook add`, which takes the same grammar.
 */
export function parseRoute(
  platform: string,
  channelId: string,
  feed: string,
  query: string | undefined,
): SubscriptionSeed | string {
  if (!isFeedName(feed))
    return `unknown feed "${feed}" (posts, comments, collections, live or notifications)`;
  const params = new URLSearchParams(query ?? '');
  const format = params.get('format') ?? undefined;
  if (format !== undefined && !isMessageFormat(format)) {
    return `format expects full, compact or title, got "${format}"`;
  }
  params.delete('format');
  const onRemoval = params.get('on-removal') ?? undefined;
  if (onRemoval !== undefined && !isOnRemoval(onRemoval)) {
    return `on-removal expects mark or delete, got "${onRemoval}"`;
  }
  params.delete('on-removal');
  const addressing = takeAddressing(params, platform);
  if (typeof addressing === 'string') return addressing;
  const backfill = takeBackfill(params);
  if (typeof backfill === 'string') return backfill;
  const threading = parseThreadParams(params, feed);
  if (typeof threading === 'string') return threading;
  const schedule = takeSchedule(params, feed);
  if (typeof schedule === 'string') return schedule;
  const conflict = threadCommentsScheduleConflict(threading, schedule);
  if (conflict !== undefined) return conflict.replace(/\.$/, '');
  const filters = parseFilters(params);
  if (typeof filters === 'string') return filters;
  const misplaced = filtersNotApplicable(feed, filters);
  if (misplaced.length > 0) return `filter ${misplaced.join(', ')} does not apply to the ${feed} feed`;
  return {
    platform,
    channelId,
    feed,
    filters,
    ...(format === undefined ? {} : { format }),
    ...(onRemoval === 'delete' ? { onRemoval } : {}),
    ...(threading === undefined ? {} : { threading }),
    ...(schedule === undefined ? {} : { schedule }),
    ...addressing,
    ...(backfill === undefined || backfill === 0 ? {} : { backfill }),
  };
}

const ADDRESSING_KEYS = ['mention', 'mention-on', 'webhook-name', 'webhook-avatar'] as const;

/**
 * Takes `mention=` (repeatable, each a comma list), `mention-on=`, `webhook-name=` and
 * `webhook-avatar=` out of `params`. Targets are checked for their form here; whether the
 * platform can ping them is checked where the platforms are known (the app, at start-up).
 */
function takeAddressing(params: URLSearchParams, platform: string): Addressing | string {
  const values = Object.fromEntries(ADDRESSING_KEYS.map((key) => [key, params.getAll(key)]));
  for (const key of ADDRESSING_KEYS) params.delete(key);
  const addressing: Addressing = {};
  const mentions = (values['mention'] ?? []).flatMap((v) => v.split(',')).filter((v) => v.trim() !== '');
  const targets: MentionTarget[] = [];
  for (const value of mentions) {
    const parsed = parseMentionTarget(value);
    if (typeof parsed === 'string') return `mention: ${parsed}`;
    targets.push(parsed);
  }
  if (targets.length > MAX_MENTIONS) return `mention: at most ${MAX_MENTIONS} targets`;
  if (targets.length > 0) addressing.mentions = targets;
  const mentionOn = (values['mention-on'] ?? []).flatMap((v) => v.split(',')).map((v) => v.trim());
  if (mentionOn.some((word) => word === '' || word.length > 100)) {
    return 'mention-on expects words of 1 to 100 characters, separated by commas';
  }
  if (mentionOn.length > 0) {
    if (addressing.mentions === undefined) return 'mention-on needs mention= (whom to ping on a match)';
    addressing.mentionOn = mentionOn;
  }
  for (const key of ['webhook-name', 'webhook-avatar'] as const) {
    const [value, twice] = values[key] ?? [];
    if (value === undefined) continue;
    if (twice !== undefined) return `${key} is given more than once`;
    if (platform === 'slack' || platform === 'discord' || platform === 'console') {
      return `${key} applies to webhook destinations only`;
    }
    const parsed = key === 'webhook-name' ? parseSenderName(value) : parseSenderAvatar(value);
    if (typeof parsed !== 'string') return parsed.problem;
    addressing.sender = { ...addressing.sender, [key === 'webhook-name' ? 'name' : 'avatarUrl']: parsed };
  }
  return addressing;
}

/** `backfill=N` taken out of `params`: 0 to 20, as `--backfill` takes; a problem names the key. */
function takeBackfill(params: URLSearchParams): number | undefined | string {
  const values = params.getAll('backfill');
  params.delete('backfill');
  if (values.length > 1) return 'backfill is given more than once';
  const [raw] = values;
  if (raw === undefined) return undefined;
  const count = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(count >= BACKFILL_LIMITS.min && count <= BACKFILL_LIMITS.max))
    return `backfill ${BACKFILL_PROBLEM}, got "${raw.slice(0, 20)}"`;
  return count;
}

/**
 * Takes the schedule options (`digest=daily@09:00&top=5&tz=Asia/Tokyo&quiet=22:00-07:00`…) out
 * of `params`, checked by the same parser as `/directory subscribe`; a problem names the key.
 */
function takeSchedule(params: URLSearchParams, feed: string): ScheduleOptions | undefined | string {
  const input: ScheduleInput = {};
  for (const name of SCHEDULE_OPTION_NAMES) {
    const values = params.getAll(name);
    params.delete(name);
    if (values.length > 1) return `${name} is given more than once`;
    if (values[0] !== undefined) input[name] = values[0];
  }
  const checked = buildSchedule(input, feed, (name) => name);
  return checked.ok ? checked.schedule : checked.problem.replace(/\.$/, '');
}

function parseFilters(params: URLSearchParams): FeedFilters | string {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const name = FILTER_KEYS[key];
    if (!name)
      return `unknown filter "${key}" (post, user, keyword, exclude, video, min-votes, remind; or format, on-removal, threads, thread-comments, broadcast, ${SCHEDULE_OPTION_NAMES.join(', ')}, backfill, ${ADDRESSING_KEYS.join(', ')})`;
    if (name === 'keywords' || name === 'exclude') {
      const list = (raw[name] as string[] | undefined) ?? [];
      list.push(
        ...value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean),
      );
      raw[name] = list;
    } else if (name === 'video') {
      if (value !== 'true' && value !== 'false') return `video expects true or false, got "${value}"`;
      raw[name] = value === 'true';
    } else if (name === 'minVotes' || name === 'remindMinutes') {
      if (!/^\d+$/.test(value)) return `${key} expects a whole number, got "${value}"`;
      raw[name] = Number(value);
    } else {
      raw[name] = value;
    }
  }
  const parsed = feedFiltersSchema.safeParse(raw);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  }
  return stripUndefined(parsed.data);
}

function stripUndefined(filters: z.output<typeof feedFiltersSchema>): FeedFilters {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as FeedFilters;
}
