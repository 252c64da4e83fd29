import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { recentItems } from '../engine/index.js';
import { FEED_NAMES, type FeedName, isFeedName } from '../feeds/feed-names.js';
import { formatMessage } from '../messages/index.js';
import { isMessageFormat, MESSAGE_FORMATS } from '../ports/index.js';
import { buildSchedule } from '../schedule/index.js';
import {
  BACKFILL_LIMITS,
  BACKFILL_PROBLEM,
  chooseBackfill,
  destinationKey,
  type FeedFilters,
  feedFiltersSchema,
  filtersNotApplicable,
  ON_REMOVAL,
  threadCommentsScheduleConflict,
} from '../subscriptions/index.js';
import { splitList } from './arg-formats.js';
import type { ActionCommand } from './command-module.js';
import type { ParsedArgs } from './command-spec.js';
import { scheduleClock } from './describe-schedule.js';
import { describeSubscription } from './describe-subscription.js';
import { INTERACTIVE } from './interactive.js';
import { MENTION_OPTIONS, mentionsFromArgs } from './mention-options.js';
import { errorReply, infoReply } from './replies.js';
import {
  SCHEDULE_FORM_INPUTS,
  SCHEDULE_OPTION_SPECS,
  SCHEDULE_USAGE,
  scheduleInput,
} from './schedule-option-specs.js';
import { slug, username } from './shared-options.js';
import { previewOf } from './subscription-preview.js';
import { THREAD_OPTIONS, threadSettingsFromArgs } from './thread-options.js';
import type { CommandDependencies } from './types.js';
import { upstreamFailureReply } from './upstream-failure.js';

const FLAG_NAMES: Readonly<Record<keyof FeedFilters, string>> = {
  post: '--post',
  user: '--user',
  keywords: '--keyword',
  exclude: '--exclude',
  video: '--video',
  minVotes: '--min-votes',
  remindMinutes: '--remind',
};

/** Builds and checks the filters from parsed flags; a problem is a sentence for the user. */
function filtersFromArgs(
  feed: FeedName,
  args: ParsedArgs,
): { ok: true; filters: FeedFilters } | { ok: false; problem: string; option?: string } {
  const raw: Record<string, unknown> = {};
  if (typeof args['post'] === 'string') raw['post'] = args['post'];
  if (typeof args['user'] === 'string') raw['user'] = args['user'];
  const keywords = args['keyword'];
  if (Array.isArray(keywords)) raw['keywords'] = splitList(keywords);
  const exclude = args['exclude'];
  if (Array.isArray(exclude)) raw['exclude'] = splitList(exclude);
  if (args['video'] === true) raw['video'] = true;
  if (typeof args['min-votes'] === 'number') raw['minVotes'] = args['min-votes'];
  if (typeof args['remind'] === 'number') raw['remindMinutes'] = args['remind'];
  const parsed = feedFiltersSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0] as keyof FeedFilters | undefined;
    const flag = key ? FLAG_NAMES[key] : undefined;
    return {
      ok: false,
      problem: `${flag ?? 'a filter'}: ${issue?.message ?? 'is not valid'}.`,
      ...(flag === undefined ? {} : { option: flag.slice(2) }),
    };
  }
  const filters = Object.fromEntries(
    Object.entries(parsed.data).filter(
      ([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0),
    ),
  ) as FeedFilters;
  const misplaced = filtersNotApplicable(feed, filters);
  if (misplaced.length > 0) {
    const flags = misplaced.map((key) => FLAG_NAMES[key as keyof FeedFilters]);
    return {
      ok: false,
      problem: `${flags.join(', ')} does not apply to the ${feed} feed.`,
      ...(flags[0] === undefined ? {} : { option: flags[0].slice(2) }),
    };
  }
  return { ok: true, filters };
}

/**
 * `subscribe <feed> [filters]`: adds the subscription and previews the last matching item, or with
 * `--backfill N` has the N most recent matching items posted in the channel now.
 */
export const subscribe: ActionCommand = {
  spec: {
    name: 'subscribe',
    kind: 'manage',
    description: 'Follow a feed in this channel, optionally filtered',
    usage:
      'subscribe <posts|comments|collections|live|notifications> [--post <id|slug>] [--user <username>] [--keyword <words>] [--exclude <words>] [--video] [--min-votes N] [--remind N] [--format full|compact|title] [--on-removal mark|delete] [--threads on|off] [--thread-comments] [--broadcast] [--backfill N] ' +
      SCHEDULE_USAGE +
      ' [--mention <role|group|user>] [--mention-on <words>]',
    examples: [
      'subscribe posts --min-votes 50',
      'subscribe comments --keyword ai,ml --exclude crypto',
      'subscribe comments --post notion-ai',
      'subscribe live --video --remind 15',
      'subscribe comments --format compact',
      'subscribe comments --on-removal delete',
      'subscribe posts --thread-comments',
      'subscribe comments --keyword launch --broadcast',
      'subscribe posts --digest daily@09:00 --top 5',
      'subscribe comments --post notion-ai --digest hourly',
      'subscribe posts --quiet 22:00-07:00 --max-per-hour 10 --tz Europe/Berlin',
      'subscribe posts --backfill 5',
      'subscribe comments --keyword launch --mention role:112233445566778899',
      'subscribe posts --mention group:S0123ABCD --mention-on security,outage',
    ],
    // `subscribe` alone opens this form on Slack and Discord. Discord shows the first five inputs
    // (its modals hold five rows); the rest stay typed-command-only there (docs/discord.md), the
    // schedule included: the rows choose which items come (and whether the latest come now: a new
    // channel's first question), the schedule only when.
    form: {
      title: 'Subscribe this channel',
      submitLabel: 'Subscribe',
      inputs: [
        { option: 'feed', label: 'Feed', placeholder: FEED_NAMES.join(', ') },
        { option: 'keyword', label: 'Only items mentioning any of', placeholder: 'ai, machine learning' },
        { option: 'exclude', label: 'Skip items mentioning any of', placeholder: 'crypto, nft' },
        { option: 'post', label: 'Comments on this post only', placeholder: 'A post id or slug' },
        { option: 'backfill', label: 'Post this many of the latest now', placeholder: '0 to 20 (default 0)' },
        { option: 'user', label: 'Only by this username', placeholder: 'alice' },
        { option: 'min-votes', label: 'Posts: at least this many votes', placeholder: '50' },
        { option: 'remind', label: 'Live: remind minutes before the start', placeholder: '15' },
        { option: 'format', label: 'How items look', placeholder: 'full (default), compact or title' },
        {
          option: 'on-removal',
          label: 'Removed upstream: its message is',
          placeholder: 'mark (default) or delete',
        },
        ...SCHEDULE_FORM_INPUTS,
        { option: 'video', label: 'Live: only on-camera events' },
      ],
    },
    options: [
      {
        name: 'feed',
        description: 'The feed to follow',
        type: 'string',
        required: true,
        positional: true,
        choices: FEED_NAMES,
        maxLength: 13,
        schema: z.enum(FEED_NAMES, { error: FEED_NAMES.join(', ') }),
      },
      {
        name: 'post',
        description: 'comments: only on this post (id or slug)',
        type: 'string',
        required: false,
        positional: false,
        maxLength: 100,
        schema: slug('post'),
      },
      {
        name: 'user',
        description: 'posts, comments, collections: only by this username',
        type: 'string',
        required: false,
        positional: false,
        maxLength: 51,
        schema: username,
      },
      {
        name: 'keyword',
        description: 'Only items mentioning any of these words (comma list)',
        type: 'string',
        required: false,
        positional: false,
        maxLength: 500,
        repeatable: true,
        aliases: ['keywords'],
      },
      {
        name: 'exclude',
        description: 'Skip items mentioning any of these words (comma list)',
        type: 'string',
        required: false,
        positional: false,
        maxLength: 500,
        repeatable: true,
      },
      {
        name: 'video',
        description: 'live: only on-camera events',
        type: 'boolean',
        required: false,
        positional: false,
      },
      {
        name: 'min-votes',
        description: 'posts: only with at least this many votes',
        type: 'integer',
        required: false,
        positional: false,
        minValue: 0,
        maxValue: 1_000_000,
        aliases: ['min_votes', 'minvotes'],
        schema: z
          .number()
          .int()
          .min(0, { error: 'must be 0 or more' })
          .max(1_000_000, { error: 'must be at most 1000000' }),
      },
      {
        name: 'remind',
        description: 'live: remind this many minutes before the start (0 = no reminder)',
        type: 'integer',
        required: false,
        positional: false,
        minValue: 0,
        maxValue: 1440,
        schema: z
          .number()
          .int()
          .min(0, { error: 'must be 0 or more' })
          .max(1440, { error: 'must be at most 1440 (a day)' }),
      },
      {
        name: 'format',
        description: 'How items look: full card (default), compact one line, or title only',
        type: 'string',
        required: false,
        positional: false,
        choices: MESSAGE_FORMATS,
        maxLength: 20,
        schema: z.enum(MESSAGE_FORMATS, { error: 'full, compact or title' }),
      },
      {
        name: 'on-removal',
        description: 'When an item is removed upstream: mark its message (default) or delete it',
        type: 'string',
        required: false,
        positional: false,
        choices: ON_REMOVAL,
        maxLength: 10,
        schema: z.enum(ON_REMOVAL, { error: 'mark or delete' }),
      },
      ...THREAD_OPTIONS,
      {
        name: 'backfill',
        description: `Also post the N most recent matching items now (${BACKFILL_LIMITS.min}-${BACKFILL_LIMITS.max}, default 0)`,
        type: 'integer',
        required: false,
        positional: false,
        minValue: BACKFILL_LIMITS.min,
        maxValue: BACKFILL_LIMITS.max,
        schema: z
          .number()
          .int()
          .min(BACKFILL_LIMITS.min, { error: BACKFILL_PROBLEM })
          .max(BACKFILL_LIMITS.max, { error: BACKFILL_PROBLEM }),
      },
      ...SCHEDULE_OPTION_SPECS,
      ...MENTION_OPTIONS,
    ],
  },
  async run({ invocation, args, spec, deps }) {
    const feed = String(args['feed'] ?? '');
    if (!isFeedName(feed)) return errorReply('command_usage', `Unknown feed "${feed}".`, spec.usage, 'feed');
    const checked = filtersFromArgs(feed, args);
    if (!checked.ok) return errorReply('command_usage', checked.problem, spec.usage, checked.option);
    const format = String(args['format'] ?? 'full');
    if (!isMessageFormat(format)) {
      return errorReply('command_usage', `--format expects full, compact or title.`, spec.usage, 'format');
    }
    const threading = threadSettingsFromArgs(feed, args);
    if (!threading.ok) return errorReply('command_usage', threading.problem, spec.usage, threading.option);
    const schedule = buildSchedule(scheduleInput(args), feed);
    if (!schedule.ok) return errorReply('command_usage', schedule.problem, spec.usage, schedule.option);
    const conflict = threadCommentsScheduleConflict(threading.settings, schedule.schedule, '--');
    if (conflict !== undefined) return errorReply('command_usage', conflict, spec.usage, 'thread-comments');
    const addressing = mentionsFromArgs(
      args,
      invocation.platform,
      deps.mentionSupport?.(invocation.platform),
    );
    if (!addressing.ok) return errorReply('command_usage', addressing.problem, spec.usage, addressing.option);
    // One look at the feed's latest serves the preview and the backfill (the lookup reserve).
    const now = deps.clock.now();
    const recent = await recentItems(deps.client, feed, checked.filters, now, INTERACTIVE).then(
      (items) => ({ items }),
      (error: unknown) => ({ error }),
    );
    const count = typeof args['backfill'] === 'number' ? args['backfill'] : 0;
    const backfill = count > 0 ? { count, token: randomBytes(6).toString('hex'), at: now } : undefined;
    const chosen =
      backfill && 'items' in recent
        ? chooseBackfill(recent.items, { feed, filters: checked.filters }, count, {
            now,
            withinMs: deps.backfill?.withinMs ?? DEFAULT_BACKFILL_WINDOW_MS,
          })
        : undefined;
    // Kept for the poller before the request it belongs to is stored: it finds them under the token.
    const where = destinationKey(invocation.platform, invocation.channelId);
    const unseen =
      backfill && chosen ? ((await deps.backfill?.keep(backfill.token, where, chosen)) ?? chosen.length) : 0;
    const { subscription, created, resumed, reformatted, removalChanged, rescheduled, readdressed } =
      await deps.subscriptions.add({
        platform: invocation.platform,
        channelId: invocation.channelId,
        ...(invocation.workspaceId === undefined ? {} : { workspaceId: invocation.workspaceId }),
        feed,
        filters: checked.filters,
        format,
        ...(args['on-removal'] === 'delete' ? { onRemoval: 'delete' as const } : {}),
        threading: threading.settings,
        ...(schedule.schedule === undefined ? {} : { schedule: schedule.schedule }),
        ...addressing.addressing,
        ...(backfill === undefined ? {} : { backfill }),
        createdBy: invocation.actor.userId,
      });
    const clock = await scheduleClock(deps, subscription);
    const what = describeSubscription(subscription, deps.defaultRemindMinutes, clock);
    const parts = [
      reformatted ? 'format' : '',
      removalChanged ? 'removal handling' : '',
      rescheduled ? 'schedule' : '',
      readdressed ? 'mentions' : '',
    ];
    const changed = `Changed the ${parts.filter(Boolean).join(' and ')} of this channel's subscription${reformatted ? ` to ${format}` : ''}`;
    const lead = created
      ? `Subscribed this channel to ${what}. Id: ${subscription.id} (to stop: unsubscribe ${subscription.id}).`
      : resumed
        ? `Resumed this channel's paused subscription: ${what}. Id: ${subscription.id}.`
        : reformatted || removalChanged || rescheduled || readdressed
          ? `${changed}: ${what}. Id: ${subscription.id}.`
          : `This channel already has that subscription: ${what}. Id: ${subscription.id}.`;
    if ('error' in recent) {
      // The subscription is saved either way; only the preview (or the backfill's count) is missing.
      const failure = upstreamFailureReply(recent.error, { ledger: deps.client.ledger, now });
      const later = backfill
        ? `The ${count} most recent matching items will be posted here once the directory answers. `
        : '';
      return infoReply(`${lead}\n${later}No preview: ${failure.reply.text}`);
    }
    if (chosen !== undefined)
      return infoReply(`${lead}\n${backfillText(count, chosen.length, unseen, deps)}`);
    const preview = previewOf(recent.items, checked.filters, now);
    if (!preview) {
      return infoReply(
        `${lead}\nNothing recent matches these filters; new matching items will appear in this channel.`,
      );
    }
    // Shown as the channel will see it, in the subscription's format.
    const message = formatMessage(preview, format);
    return infoReply(
      `${lead}\nThe most recent matching item is below; new ones will appear in this channel.`,
      [message],
    );
  },
  complete: (option) => (option === 'feed' ? FEED_NAMES : []),
};

/** Without the bot's DEDUPE_TTL_DAYS at hand (the CLI's lookups), its default: 30 days. */
const DEFAULT_BACKFILL_WINDOW_MS = 30 * 86_400_000;

/**
 * What the reply says of a backfill of `count` (issue 29): how many of the latest are posted now
 * (`chosen` matched, of which the channel had not had `unseen`), oldest first, and why fewer.
 */
function backfillText(count: number, chosen: number, unseen: number, deps: CommandDependencies): string {
  const whole = Math.round((deps.backfill?.withinMs ?? DEFAULT_BACKFILL_WINDOW_MS) / 86_400_000);
  const days = whole === 1 ? 'day' : `${whole} days`;
  if (chosen === 0) {
    return `Nothing from the last ${days} matches these filters, so nothing is posted now; new matching items will appear in this channel.`;
  }
  if (unseen === 0) {
    return `This channel already has the ${chosen === 1 ? 'most recent matching item' : `${chosen} most recent matching items`}; new ones will appear here.`;
  }
  const items = unseen === 1 ? 'the most recent matching item' : `the ${unseen} most recent matching items`;
  const why =
    unseen < chosen
      ? ` (of the ${chosen} most recent, the ones this channel has not had yet)`
      : chosen < count
        ? ` (all that match from the last ${days})`
        : '';
  return `Posting ${items} here now${why}, oldest first; new ones will follow.`;
}
