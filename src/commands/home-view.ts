import type { HomeChannel, HomeSubscription, HomeView, HomeViewer } from '../ports/index.js';
import type { Subscription } from '../subscriptions/index.js';
import { whoMayManage } from './channel-permission.js';
import type { ScheduleClock } from './describe-schedule.js';
import { describePause, describeSubscription } from './describe-subscription.js';
import { failingFeeds, statusFields } from './status.js';
import { formatUtc } from './time-text.js';
import type { StatusReport } from './types.js';

/**
 * Which subscriptions a viewer's home covers: those made in their workspace, and, where the bot
 * serves that one workspace only, the routes from SUBSCRIPTIONS (which name no workspace).
 */
export function inViewersWorkspace(viewer: HomeViewer): (subscription: Subscription) => boolean {
  return (s) =>
    s.platform === viewer.platform &&
    (s.workspaceId === viewer.workspaceId || (s.workspaceId === undefined && viewer.soleWorkspace));
}

export interface HomeViewInput {
  viewer: HomeViewer;
  /** The viewer may change every channel of their workspace (platform admin, or ADMIN_USER_IDS). */
  canManage: boolean;
  /** The workspace's subscriptions, in the order they were made. */
  subscriptions: readonly Subscription[];
  report: StatusReport;
  now: number;
  defaultRemindMinutes: number;
  lastDelivery(subscriptionId: string): number | undefined;
  /** The zone a scheduled subscription is read in, and now: its schedule shows as `subscriptions` shows it. */
  scheduleClock?(subscriptionId: string): ScheduleClock | undefined;
}

/**
 * The home for one viewer. Channel managers see every subscribed channel of their workspace with
 * its subscriptions, and paused ones with the reason; anyone else sees who may manage channels and
 * the bot's status, with paused subscriptions only counted, as `/directory status` counts other
 * channels' (their names are not everyone's business).
 */
export function buildHomeView(input: HomeViewInput): HomeView {
  const { viewer, canManage, report, now } = input;
  const shown = canManage ? input.subscriptions : [];
  const channels = new Map<string, HomeChannel>();
  for (const s of shown) {
    const channel = channels.get(s.channelId) ?? { channelId: s.channelId, subscriptions: [] };
    channels.set(s.channelId, channel);
    channel.subscriptions.push(homeSubscription(s, input));
  }
  const pausedHere = input.subscriptions.filter((s) => s.paused !== undefined);
  const failing = failingFeeds(report);
  const problems = [
    ...(failing > 0 ? [`${failing} feed(s) failing`] : []),
    ...(pausedHere.length > 0 ? [`${pausedHere.length} subscription(s) paused in this workspace`] : []),
  ];
  return {
    canManage,
    permission: canManage
      ? 'You can change these channels\u2019 subscriptions.'
      : `You cannot change subscriptions here. ${whoMayManage(viewer.platform)}`,
    channels: [...channels.values()],
    status: {
      lead: problems.length > 0 ? `Status: ${problems.join(', ')}.` : 'Status: all good.',
      lines: statusFields(report, now),
      paused: canManage ? pausedHere.map((s) => homeSubscription(s, input)) : [],
      pausedElsewhere: canManage ? 0 : pausedHere.length,
    },
  };
}

function homeSubscription(s: Subscription, input: HomeViewInput): HomeSubscription {
  const last = input.lastDelivery(s.id);
  return {
    id: s.id,
    channelId: s.channelId,
    summary: describeSubscription(s, input.defaultRemindMinutes, input.scheduleClock?.(s.id)),
    ...(s.paused ? { paused: describePause(s.paused, input.now) } : {}),
    ...(last === undefined ? {} : { lastDelivery: formatUtc(last, input.now) }),
  };
}
