import type {
  CommandHandler,
  CommandInvocation,
  HomeAction,
  HomeActionResult,
  HomeService,
  HomeView,
  HomeViewer,
  KeyValueStore,
  Logger,
  StaleHomes,
} from '../ports/index.js';
import type { Subscription } from '../subscriptions/index.js';
import { mayManage } from './channel-permission.js';
import { type ScheduleClock, scheduleClock } from './describe-schedule.js';
import { buildHomeView, inViewersWorkspace } from './home-view.js';
import type { CommandDependencies } from './types.js';

/** How long after opening their home a viewer's view is kept current. */
export const HOME_RECENT_MS = 30 * 60_000;
/** Most viewers of one workspace kept current: a change costs at most this many publishes. */
export const HOME_MAX_VIEWERS = 50;

/** The equivalent `/directory` command of each home button. */
const COMMAND_OF: Record<HomeAction, string> = { pause: 'pause', resume: 'resume', remove: 'unsubscribe' };

export interface HomeServiceDeps {
  deps: Pick<
    CommandDependencies,
    'subscriptions' | 'clock' | 'adminUserIds' | 'status' | 'defaultRemindMinutes' | 'zones'
  >;
  /** The `/directory` handler: every button runs the command it stands for, with its checks. */
  commands: CommandHandler;
  /** Where recent viewers are remembered (see docs/slack.md, "App Home"). */
  store: KeyValueStore;
  logger: Logger;
  recentMs?: number;
  maxViewers?: number;
}

/** A store key per workspace: `{ userId: openedAt }` of its recent viewers. */
const viewersKey = (platform: string, workspaceId: string) => `home-viewers:${platform}:${workspaceId}`;

/**
 * The home surface's core (Slack's App Home tab): builds each viewer's view, runs its buttons as the
 * equivalent commands, and tells the adapter whose view a subscription change made stale.
 *
 * Recent viewers are remembered in the store, not in memory: the instance that changes a
 * subscription (the poller pausing a refused channel, or whichever web instance took the click) is
 * often not the one that received `app_home_opened`, and each must know whom to republish for.
 * The record is one small document per workspace, expiring with the last view.
 */
export function createHomeService(options: HomeServiceDeps): HomeService & {
  /** The dispatcher delivered for these subscriptions at `at` (the home's "last delivery"). */
  recordDelivery(subscriptionIds: readonly string[], at: number): void;
} {
  const { deps, commands, store, logger } = options;
  const recentMs = options.recentMs ?? HOME_RECENT_MS;
  const maxViewers = options.maxViewers ?? HOME_MAX_VIEWERS;
  const listeners = new Map<string, StaleHomes[]>();
  /** The answer to a viewer's last button press, awaited by their next view so it always shows. */
  const notices = new Map<string, Promise<HomeActionResult>>();
  /** Last delivery per subscription id, seen by this instance; bounded by the subscriptions delivered. */
  const delivered = new Map<string, number>();
  /** Workspaces whose viewers own the routes that name none (a single-token bot has one). */
  const soleWorkspaces = new Map<string, string>();

  const viewerKey = (v: { platform: string; workspaceId: string; userId: string }) =>
    `${v.platform}:${v.workspaceId}:${v.userId}`;

  async function recentViewers(platform: string, workspaceId: string): Promise<Record<string, number>> {
    const now = deps.clock.now();
    const all = (await store.get<Record<string, number>>(viewersKey(platform, workspaceId))) ?? {};
    return Object.fromEntries(Object.entries(all).filter(([, at]) => now - at < recentMs));
  }

  async function remember(viewer: HomeViewer): Promise<void> {
    if (viewer.soleWorkspace) soleWorkspaces.set(viewer.platform, viewer.workspaceId);
    const now = deps.clock.now();
    const recent = { ...(await recentViewers(viewer.platform, viewer.workspaceId)), [viewer.userId]: now };
    // The most recent first; the oldest beyond the cap stop being kept current.
    const kept = Object.entries(recent)
      .sort(([, a], [, b]) => b - a)
      .slice(0, maxViewers);
    await store.set(viewersKey(viewer.platform, viewer.workspaceId), Object.fromEntries(kept), recentMs);
  }

  async function republish(changed: readonly Subscription[]): Promise<void> {
    const workspaces = new Map<string, Set<string>>();
    for (const s of changed) {
      const workspaceId = s.workspaceId ?? soleWorkspaces.get(s.platform);
      if (workspaceId === undefined || !listeners.has(s.platform)) continue;
      const set = workspaces.get(s.platform) ?? new Set<string>();
      set.add(workspaceId);
      workspaces.set(s.platform, set);
    }
    for (const [platform, ids] of workspaces) {
      const stale: { workspaceId: string; userId: string }[] = [];
      for (const workspaceId of ids) {
        for (const userId of Object.keys(await recentViewers(platform, workspaceId))) {
          stale.push({ workspaceId, userId });
        }
      }
      if (stale.length === 0) continue;
      for (const listener of listeners.get(platform) ?? []) listener(stale);
    }
  }

  deps.subscriptions.onChange((changed) => {
    republish(changed).catch((error: unknown) => {
      logger.warn({ err: error }, 'could not find whose home to republish after a subscription change');
    });
  });

  async function answer(
    viewer: HomeViewer,
    action: HomeAction,
    channelId: string,
    subscriptionId: string,
  ): Promise<HomeActionResult> {
    const invocation: CommandInvocation = {
      platform: viewer.platform,
      channelId,
      workspaceId: viewer.workspaceId,
      actor: { userId: viewer.userId, canManageChannel: viewer.canManageChannels },
      text: `${COMMAND_OF[action]} ${subscriptionId}`,
      via: 'home',
    };
    // Refused exactly as the command is: the handler's own check and words.
    if (!mayManage(invocation, deps.adminUserIds)) {
      return { text: (await commands.handle(invocation)).text, refused: true, changed: false };
    }
    const index = await deps.subscriptions.index();
    const before = index
      .forChannel(viewer.platform, channelId)
      .find((s) => s.id === subscriptionId && inViewersWorkspace(viewer)(s));
    if (before === undefined) {
      return {
        text: `Subscription ${subscriptionId} no longer exists: someone removed it, or its channel was forgotten. Nothing was changed.`,
        refused: true,
        changed: false,
      };
    }
    const reply = await commands.handle(invocation);
    const changed =
      reply.error === undefined &&
      (action === 'remove' || (action === 'pause') !== (before.paused !== undefined));
    return { text: reply.text, refused: reply.error !== undefined, changed };
  }

  /** Each scheduled subscription's zone and "now", as `/directory subscriptions` reads them. */
  async function scheduleClocks(shown: readonly Subscription[]): Promise<Map<string, ScheduleClock>> {
    const found = await Promise.all(shown.map(async (s) => [s.id, await scheduleClock(deps, s)] as const));
    return new Map(found.filter((entry): entry is [string, ScheduleClock] => entry[1] !== undefined));
  }

  return {
    async view(viewer): Promise<HomeView> {
      await remember(viewer);
      const key = viewerKey(viewer);
      const pending = notices.get(key);
      notices.delete(key);
      const notice = await pending?.catch(() => undefined);
      const canManage = viewer.canManageChannels || deps.adminUserIds.includes(viewer.userId);
      const index = await deps.subscriptions.index();
      const subscriptions = index.where(inViewersWorkspace(viewer));
      const clocks = canManage ? await scheduleClocks(subscriptions) : new Map<string, ScheduleClock>();
      const view = buildHomeView({
        viewer,
        canManage,
        subscriptions,
        report: await deps.status(),
        now: deps.clock.now(),
        defaultRemindMinutes: deps.defaultRemindMinutes,
        lastDelivery: (id) => delivered.get(id),
        scheduleClock: (id) => clocks.get(id),
      });
      return notice === undefined
        ? view
        : { ...view, notice: { text: notice.text, refused: notice.refused } };
    },

    async act(viewer, action, channelId, subscriptionId) {
      await remember(viewer);
      const result = answer(viewer, action, channelId, subscriptionId);
      // Set before the change is written, so the republish it triggers shows this answer.
      notices.set(viewerKey(viewer), result);
      return result;
    },

    onStale(platform, listener) {
      listeners.set(platform, [...(listeners.get(platform) ?? []), listener]);
    },

    recordDelivery(subscriptionIds, at) {
      for (const id of subscriptionIds) delivered.set(id, at);
    },
  };
}
