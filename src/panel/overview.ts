import type { StatusReport } from '../commands/index.js';
import type { Subscription } from '../subscriptions/index.js';
import type { VisibleChannel, VisibleWorkspace } from './access.js';

/** One feed's line on the overview. */
export interface FeedLine {
  feed: string;
  lastPollAt?: number;
  lastSuccessAt?: number;
  /** How long since the last good poll, in ms (the feed's lag); undefined before the first. */
  lagMs?: number;
  nextPollAt?: number;
  healthy: boolean;
  /** Why not, in the engine's words. */
  problem?: string;
}

/** One failure the viewer should know about, with its reason. */
export interface FailureLine {
  at?: number;
  where: string;
  href?: string;
  what: string;
}

export interface OverviewData {
  workspaces: (VisibleWorkspace & { channels: number; subscriptions: number })[];
  channels: (VisibleChannel & { paused: number })[];
  feeds: FeedLine[];
  quotas: { name: string; remaining: number; limit: number; resetAt: number | null; paused: boolean }[];
  queueDepth: number | undefined;
  failures: FailureLine[];
  isPoller: boolean;
}

/** Most failures listed on the overview; the channel pages have the rest. */
const MAX_FAILURES = 30;

const channelHref = (s: Pick<Subscription, 'platform' | 'channelId'>) =>
  `/channels/${encodeURIComponent(s.platform)}/${encodeURIComponent(s.channelId)}`;

/**
 * The overview's content from what `/directory status` reports and the viewer's channels: each
 * subscribed feed's last poll, lag and health, the quota left, the queue, and recent failures
 * with their reasons (feeds failing to poll, channels that refused the bot and were paused,
 * replies that could not go into their thread, removed items that could not be deleted).
 */
export function overviewData(input: {
  now: number;
  report: StatusReport;
  workspaces: readonly VisibleWorkspace[];
  channels: readonly VisibleChannel[];
  queueDepth: number | undefined;
  describePause: (s: Subscription) => string;
}): OverviewData {
  const { now, report } = input;
  const feeds = report.feeds
    .filter((f) => report.subscribedFeeds.has(f.feed))
    .map((f): FeedLine => {
      const healthy = f.consecutiveFailures === 0;
      return {
        feed: f.feed,
        ...(f.lastPollAt === undefined ? {} : { lastPollAt: f.lastPollAt }),
        ...(f.lastSuccessAt === undefined
          ? {}
          : { lastSuccessAt: f.lastSuccessAt, lagMs: now - f.lastSuccessAt }),
        ...(f.nextPollAt === undefined ? {} : { nextPollAt: f.nextPollAt }),
        healthy,
        ...(healthy
          ? {}
          : { problem: `${f.consecutiveFailures} failed in a row: ${f.lastError ?? 'no reason given'}` }),
      };
    });
  const failures: FailureLine[] = feeds
    .filter((f) => !f.healthy)
    .map((f) => ({
      ...(f.lastPollAt === undefined ? {} : { at: f.lastPollAt }),
      where: `${f.feed} feed`,
      what: f.problem ?? '',
    }));
  for (const channel of input.channels) {
    for (const s of channel.subscriptions) {
      const where = `${channel.workspaceName} · ${channel.channelId}`;
      const href = channelHref(s);
      if (s.paused && s.paused.code !== 'paused_by_user') {
        failures.push({ at: s.paused.at, where, href, what: `${s.id} paused: ${input.describePause(s)}` });
      }
      if (s.threadProblem) failures.push({ where, href, what: `${s.id}: ${s.threadProblem.reason}` });
      if (s.removalProblem) failures.push({ where, href, what: `${s.id}: ${s.removalProblem.reason}` });
    }
  }
  failures.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
  const workspaces = input.workspaces.map((w) => {
    const mine = input.channels.filter((c) => c.platform === w.platform && c.workspaceId === w.id);
    return {
      ...w,
      channels: mine.length,
      subscriptions: mine.reduce((n, c) => n + c.subscriptions.length, 0),
    };
  });
  return {
    workspaces,
    channels: input.channels.map((c) => ({ ...c, paused: c.subscriptions.filter((s) => s.paused).length })),
    feeds,
    quotas: Object.entries(report.quotas).map(([name, q]) => ({ name, ...q })),
    queueDepth: input.queueDepth,
    failures: failures.slice(0, MAX_FAILURES),
    isPoller: report.isPoller,
  };
}
