import type { FeedName } from '../feeds/feed-names.js';
import type { ScheduleOptions } from '../schedule/index.js';

/**
 * How a subscription threads (`/directory subscribe … --threads off --thread-comments --broadcast`).
 * Every field is absent by default and only `true` is stored, so a subscription made before
 * threads reads as "threads on where the parent exists", the default.
 */
export interface ThreadSettings {
  /** `--threads off`: every item top-level, as before threads. */
  off?: true;
  /** `--thread-comments` (posts): also deliver the comments on each post this channel received, in its thread. */
  comments?: true;
  /** `--broadcast` (Slack): a threaded comment matching the keyword filter is also shown in the channel. */
  broadcast?: true;
}

/** The stored form: undefined when every setting is the default. */
export function storedThreading(settings: ThreadSettings | undefined): ThreadSettings | undefined {
  if (!settings) return undefined;
  const stored: ThreadSettings = {
    ...(settings.off ? { off: true as const } : {}),
    ...(settings.comments ? { comments: true as const } : {}),
    ...(settings.broadcast ? { broadcast: true as const } : {}),
  };
  return Object.keys(stored).length === 0 ? undefined : stored;
}

/** `threads off`, `comments threaded`, `broadcast on keyword` for the subscription's description. */
export function describeThreading(settings: ThreadSettings | undefined): string {
  const parts: string[] = [];
  if (settings?.off) parts.push('threads off');
  if (settings?.comments) parts.push("with its posts' comments in threads");
  if (settings?.broadcast) parts.push('keyword matches also sent to the channel');
  return parts.join(', ');
}

/**
 * The thread keys of a SUBSCRIPTIONS entry (`threads=on|off`, `thread-comments=true`,
 * `broadcast=true`), removed from `params`, with a sentence naming the key for each that is
 * wrong. `feed` is undefined when the entry's feed is unknown (what applies to it is not judged).
 */
export function parseThreadParams(
  params: URLSearchParams,
  feed: FeedName | undefined,
): { settings: ThreadSettings | undefined; problems: string[] } {
  const threads = params.get('threads');
  const comments = params.get('thread-comments');
  const broadcast = params.get('broadcast');
  for (const key of ['threads', 'thread-comments', 'broadcast']) params.delete(key);
  const problems: string[] = [];
  if (threads !== null && threads !== 'on' && threads !== 'off')
    problems.push(`threads expects on or off, got "${threads}"`);
  for (const [key, value] of [
    ['thread-comments', comments],
    ['broadcast', broadcast],
  ] as const) {
    if (value !== null && value !== 'true' && value !== 'false')
      problems.push(`${key} expects true or false, got "${value}"`);
  }
  if (comments === 'true' && feed !== undefined && feed !== 'posts')
    problems.push(`thread-comments applies to the posts feed, not ${feed}`);
  const settings = storedThreading({
    ...(threads === 'off' ? { off: true as const } : {}),
    ...(comments === 'true' ? { comments: true as const } : {}),
    ...(broadcast === 'true' ? { broadcast: true as const } : {}),
  });
  return { settings, problems };
}

/**
 * `--thread-comments` follows posts the channel received; a schedule holds posts back (a digest,
 * quiet hours, a cap), so their comments would find no message to go under and be passed over
 * for good. The combination is refused rather than losing them. `dash` is `--` for the command.
 */
export function threadCommentsScheduleConflict(
  threading: ThreadSettings | undefined,
  schedule: ScheduleOptions | undefined,
  dash = '',
): string | undefined {
  if (threading?.comments !== true || schedule === undefined) return undefined;
  const holding = (['digest', 'quiet', 'maxPerHour', 'maxPerDay'] as const).filter(
    (k) => schedule[k] !== undefined,
  );
  if (holding.length === 0) return undefined;
  const names = { digest: 'digest', quiet: 'quiet', maxPerHour: 'max-per-hour', maxPerDay: 'max-per-day' };
  return `${dash}thread-comments cannot be combined with ${holding.map((k) => dash + names[k]).join(', ')}: a post held by a schedule has no message in the channel for its comments to go under. Subscribe to the comments separately.`;
}
