import type { DirectoryConnection } from '../directory/index.js';
import type { FeedHealth } from '../engine/index.js';
import type { CommandInvocation, CommandReply, MessageField } from '../ports/index.js';
import type { Subscription } from '../subscriptions/index.js';
import type { ActionCommand } from './command-module.js';
import { describePause } from './describe-subscription.js';
import { infoMessage, infoReply } from './replies.js';
import { formatDuration, formatUtc } from './time-text.js';
import type { QuotaStatus, StatusReport } from './types.js';

const QUOTA_NAMES: Readonly<Record<string, string>> = {
  v1: 'V1 requests',
  'v2-requests': 'V2 requests',
  'v2-complexity': 'V2 complexity points',
};

function quotaLine(quota: QuotaStatus, now: number): string {
  const left = `${quota.remaining} of ${quota.limit} left`;
  const reset =
    quota.resetAt !== null && quota.resetAt > now
      ? `, resets at ${formatUtc(quota.resetAt, now)} (in ${formatDuration(quota.resetAt - now)})`
      : '';
  return `${quota.paused ? 'PAUSED after a rate limit; ' : ''}${left}${reset}`;
}

/** The directory connection in words; the capitals mark what needs someone's attention. */
export function connectionLine(connection: DirectoryConnection, now: number): string {
  switch (connection.state) {
    case 'unknown':
      return 'not asked yet';
    case 'ok':
      return 'answers and accepts the token';
    case 'refused':
      return `REFUSES DIRECTORY_TOKEN since ${formatUtc(connection.since, now)} (${connection.detail}); nothing is polled or looked up until it is given a token it accepts`;
    case 'unreachable':
      return `NOT ANSWERING since ${formatUtc(connection.since, now)} (${connection.detail}); polls and lookups resume when it answers`;
  }
}

/** The lead's words for a directory that cannot be used; undefined when it can (or is not asked yet). */
function connectionProblem(connection: DirectoryConnection): string | undefined {
  if (connection.state === 'refused') return 'the directory refuses the token';
  if (connection.state === 'unreachable') return 'the directory is not answering';
  return undefined;
}

/**
 * A feed is late when its last success is older than three of its intervals. A feed no
 * subscription wants is not polled at all (quota kept), so it is "not subscribed", never
 * waiting for a poll that will not come.
 */
function feedLine(health: FeedHealth, subscribed: boolean, now: number): string {
  if (!subscribed) {
    return health.lastPollAt === undefined
      ? 'not subscribed'
      : `not subscribed; last polled ${formatDuration(now - health.lastPollAt)} ago`;
  }
  if (health.lastPollAt === undefined) return 'not polled yet';
  const parts: string[] = [`last poll ${formatDuration(now - health.lastPollAt)} ago`];
  if (health.intervalMs > 0) parts.push(`every ${formatDuration(health.intervalMs)}`);
  if (health.lastSuccessAt !== undefined) parts.push(`lag ${formatDuration(now - health.lastSuccessAt)}`);
  const late =
    health.lastSuccessAt === undefined ||
    (health.intervalMs > 0 && now - health.lastSuccessAt > 3 * health.intervalMs);
  const state =
    health.consecutiveFailures > 0
      ? `FAILING (${health.consecutiveFailures}×${health.lastError ? `: ${health.lastError}` : ''})`
      : late
        ? 'LATE'
        : 'healthy';
  return `${state}; ${parts.join(', ')}`;
}

/**
 * What `status` shows of the bot as a whole: quota left per class and each feed's health, as
 * fields (the Slack home tab shows the same).
 */
export function statusFields(report: StatusReport, now: number): MessageField[] {
  const directoryField: MessageField = { name: 'Directory', value: connectionLine(report.connection, now) };
  const quotaFields: MessageField[] = Object.entries(report.quotas).map(([name, quota]) => ({
    name: QUOTA_NAMES[name] ?? name,
    value: quotaLine(quota, now),
  }));
  const feedFields: MessageField[] = report.feeds.map((health) => ({
    name: `Feed ${health.feed}`,
    value: feedLine(health, report.subscribedFeeds.has(health.feed), now),
  }));
  const workers = report.deliveryWorkers;
  const workerFields: MessageField[] =
    workers === undefined
      ? []
      : [
          {
            name: 'Delivery workers',
            value:
              `${workers.queued} queued` +
              (workers.dead > 0
                ? `; ${workers.dead} DEAD (gave up after every attempt): an operator replays them with "directory-bot deliveries replay --all"`
                : '; none dead'),
          },
        ];
  return [
    directoryField,
    ...quotaFields,
    ...(feedFields.length > 0 ? feedFields : [{ name: 'Feeds', value: 'no feed is being polled' }]),
    ...workerFields,
  ];
}

/** Feeds failing that someone wants: a feed nobody subscribes to is not polled, so its last failure no longer matters. */
export function failingFeeds(report: StatusReport): number {
  return report.feeds.filter((h) => h.consecutiveFailures > 0 && report.subscribedFeeds.has(h.feed)).length;
}

/**
 * `status`: quota left per class and when it resets, each feed's last poll, lag and health,
 * and this channel's paused subscriptions with the reason. Other channels' subscriptions are
 * only counted: their names are not the asker's business.
 */
export function statusReply(
  report: StatusReport,
  invocation: CommandInvocation,
  now: number,
  /** This channel's subscriptions; those whose replies could not go in threads are listed. */
  channelSubscriptions: readonly Subscription[] = [],
): CommandReply {
  const here = report.pausedSubscriptions.filter(
    (s) => s.platform === invocation.platform && s.channelId === invocation.channelId,
  );
  const elsewhere = report.pausedSubscriptions.length - here.length;
  const pausedLines = [
    ...here.map(
      (s) => `${s.id} (${s.feed}) paused: ${s.paused ? describePause(s.paused, now) : 'unknown reason'}`,
    ),
    ...(elsewhere > 0 ? [`${elsewhere} paused in other channels`] : []),
  ];
  const messages = [
    infoMessage(
      'Directory bot status',
      report.isPoller
        ? 'This instance polls the directory.'
        : `Another instance polls the directory; the directory, quota and feed health are as it last saved them${
            report.savedAt === undefined ? '' : ` (${formatDuration(Math.max(0, now - report.savedAt))} ago)`
          }.`,
      statusFields(report, now),
    ),
  ];
  if (pausedLines.length > 0) messages.push(infoMessage('Paused subscriptions', pausedLines.join('\n')));
  const threadLines = threadProblemLines(channelSubscriptions, now);
  if (threadLines.length > 0) messages.push(infoMessage('Threads unavailable', threadLines.join('\n')));
  const removalLines = removalProblemLines(channelSubscriptions, now);
  if (removalLines.length > 0) messages.push(infoMessage('Deleting refused', removalLines.join('\n')));
  const failing = failingFeeds(report);
  const problems = [
    connectionProblem(report.connection),
    failing > 0 ? `${failing} feed(s) failing` : undefined,
    here.length > 0 ? `${here.length} subscription(s) paused here` : undefined,
  ].filter((problem) => problem !== undefined);
  const lead = problems.length > 0 ? `Status: ${problems.join(', ')}.` : 'Status: all good.';
  const threads =
    threadLines.length > 0
      ? ` ${threadLines.length} subscription(s) post replies top-level: see Threads.`
      : '';
  return infoReply(`${lead}${threads}`, messages);
}

/**
 * Subscriptions whose comments could not go in their post's thread (no permission to create or
 * post in threads, an archived thread the bot may not reopen): they still arrive, top-level.
 */
function threadProblemLines(subscriptions: readonly Subscription[], now: number): string[] {
  return subscriptions.flatMap((s) =>
    s.threadProblem === undefined
      ? []
      : [
          `${s.id} (${s.feed}) replies posted top-level since ${formatUtc(s.threadProblem.at, now)}: ${s.threadProblem.reason} (${s.threadProblem.code})`,
        ],
  );
}

/** Subscriptions with `--on-removal delete` whose removed items' messages the platform would not delete. */
function removalProblemLines(subscriptions: readonly Subscription[], now: number): string[] {
  return subscriptions.flatMap((s) =>
    s.removalProblem === undefined
      ? []
      : [
          `${s.id} (${s.feed}) removed items marked instead of deleted since ${formatUtc(s.removalProblem.at, now)}: ${s.removalProblem.reason}`,
        ],
  );
}

export const status: ActionCommand = {
  spec: {
    name: 'status',
    kind: 'local',
    description: 'Quota left, feed health and paused subscriptions',
    usage: 'status',
    examples: ['status'],
    options: [],
  },
  async run({ invocation, deps }) {
    const here = await deps.subscriptions.forChannel(invocation.platform, invocation.channelId);
    return statusReply(await deps.status(), invocation, deps.clock.now(), here);
  },
};
