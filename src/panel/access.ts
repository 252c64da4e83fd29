import type { Installation, WorkspaceAccess } from '../ports/index.js';
import type { Subscription, SubscriptionIndex } from '../subscriptions/index.js';

/** Who is signed in to the panel, as kept in their session. No platform token is kept. */
export interface PanelUser {
  /** `local`: the sandbox's person at the terminal (no platform configured). */
  platform: 'slack' | 'discord' | 'local';
  userId: string;
  name: string;
  /** The workspaces they belong to, as the platform said at sign-in. */
  workspaces: Installation[];
  signedInAt: number;
}

/** A workspace the viewer may look at. */
export interface VisibleWorkspace {
  platform: string;
  id: string;
  name: string;
}

/** One channel as the viewer may see it. */
export interface VisibleChannel {
  platform: string;
  channelId: string;
  workspaceId: string;
  workspaceName: string;
  subscriptions: Subscription[];
}

export interface AccessDeps {
  /** Each platform's answers; the sandbox's console has its own. */
  access: ReadonlyMap<string, WorkspaceAccess>;
  adminUserIds: readonly string[];
  operatorIds: readonly string[];
}

/**
 * Who sees what, and who may change what (issue 28): a person sees the workspaces they belong to
 * where the bot is installed; an operator (PANEL_OPERATOR_IDS, and the sandbox's person at the
 * terminal) sees every installation. Changes follow `/directory subscribe`'s rule in that
 * channel: the platform's answer (`WorkspaceAccess.mayManageChannel`) or ADMIN_USER_IDS, and
 * only on the platform the person signed in with.
 */
export function createAccess(deps: AccessDeps) {
  const isOperator = (user: PanelUser) =>
    user.platform === 'local' || deps.operatorIds.includes(`${user.platform}:${user.userId}`);

  async function installations(platform: string): Promise<readonly Installation[]> {
    return (await deps.access.get(platform)?.installations()) ?? [];
  }

  /**
   * Every workspace the viewer may look at: for an operator every installation the platforms list
   * and every one a subscription names; for anyone else the workspaces they belong to (as the
   * platform said at sign-in) where the bot is installed.
   */
  async function workspaces(user: PanelUser, index: SubscriptionIndex): Promise<VisibleWorkspace[]> {
    const shown = new Map<string, VisibleWorkspace>();
    const add = (platform: string, w: Installation) =>
      shown.set(`${platform}:${w.id}`, { platform, id: w.id, name: w.name });
    for (const [platform, access] of deps.access) {
      if (isOperator(user)) {
        for (const w of await access.installations()) add(platform, w);
        const named = new Set(
          index
            .where((s) => s.platform === platform && s.workspaceId !== undefined)
            .map((s) => s.workspaceId as string),
        );
        for (const id of named) {
          if (!shown.has(`${platform}:${id}`))
            add(platform, (await access.installation(id)) ?? { id, name: id });
        }
      } else if (platform === user.platform) {
        for (const mine of user.workspaces) {
          const installed = await access.installation(mine.id);
          if (installed !== undefined) add(platform, installed);
        }
      }
    }
    return [...shown.values()];
  }

  /**
   * The workspace a subscription belongs to: the one it names, or for routes naming none (from
   * SUBSCRIPTIONS) the platform's only installation, or the one the platform says its channel is in.
   */
  async function workspaceOf(subscription: Pick<Subscription, 'platform' | 'channelId' | 'workspaceId'>) {
    if (subscription.workspaceId !== undefined) return subscription.workspaceId;
    const installed = await installations(subscription.platform);
    if (installed.length === 1) return installed[0]?.id;
    return deps.access.get(subscription.platform)?.workspaceOfChannel(subscription.channelId);
  }

  /** Every channel with subscriptions in the viewer's workspaces, grouped. */
  async function channels(user: PanelUser, index: SubscriptionIndex): Promise<VisibleChannel[]> {
    const visible = await workspaces(user, index);
    const names = new Map(visible.map((w) => [`${w.platform}:${w.id}`, w.name]));
    const byChannel = new Map<string, VisibleChannel>();
    const platforms = new Set(visible.map((w) => w.platform));
    const unplaced = new Map<string, string | undefined>();
    for (const s of index.where((s) => platforms.has(s.platform))) {
      const key = `${s.platform}:${s.channelId}`;
      let workspaceId = s.workspaceId;
      if (workspaceId === undefined) {
        if (!unplaced.has(key)) unplaced.set(key, await workspaceOf(s));
        workspaceId = unplaced.get(key);
      }
      const name = workspaceId === undefined ? undefined : names.get(`${s.platform}:${workspaceId}`);
      if (workspaceId === undefined || name === undefined) continue;
      const channel = byChannel.get(key) ?? {
        platform: s.platform,
        channelId: s.channelId,
        workspaceId,
        workspaceName: name,
        subscriptions: [],
      };
      channel.subscriptions.push(s);
      byChannel.set(key, channel);
    }
    return [...byChannel.values()];
  }

  /**
   * One channel, when the viewer may see it: one with subscriptions in their workspaces, or one the
   * platform places in their workspace. Undefined otherwise, the same answer for a channel that
   * does not exist and one of another workspace, so ids reveal nothing.
   */
  async function channel(
    user: PanelUser,
    index: SubscriptionIndex,
    platform: string,
    channelId: string,
  ): Promise<VisibleChannel | undefined> {
    if (!deps.access.has(platform)) return undefined;
    const subscriptions = index.forChannel(platform, channelId);
    const named = subscriptions.find((s) => s.workspaceId !== undefined)?.workspaceId;
    const workspaceId = named ?? (await workspaceOf({ platform, channelId }));
    if (workspaceId === undefined) return undefined;
    const visible = (await workspaces(user, index)).find(
      (w) => w.platform === platform && w.id === workspaceId,
    );
    if (visible === undefined) return undefined;
    return {
      platform,
      channelId,
      workspaceId,
      workspaceName: visible.name,
      subscriptions: subscriptions.filter(
        (s) => s.workspaceId === undefined || s.workspaceId === workspaceId,
      ),
    };
  }

  /**
   * Whether the platform lets the viewer change this channel's subscriptions (without
   * ADMIN_USER_IDS, which the command handler adds itself). Never across platforms.
   */
  async function platformAllows(user: PanelUser, where: VisibleChannel): Promise<boolean> {
    if (user.platform === 'local') return where.platform === 'console';
    if (user.platform !== where.platform) return false;
    const access = deps.access.get(where.platform);
    return (await access?.mayManageChannel(where.workspaceId, where.channelId, user.userId)) ?? false;
  }

  /** Whether the viewer may change this channel's subscriptions: the platform's rule or ADMIN_USER_IDS. */
  async function mayChange(user: PanelUser, where: VisibleChannel): Promise<boolean> {
    if (user.platform !== 'local' && user.platform !== where.platform) return false;
    if (user.platform !== 'local' && deps.adminUserIds.includes(user.userId)) return true;
    return platformAllows(user, where);
  }

  return { isOperator, workspaces, channels, channel, platformAllows, mayChange };
}

export type Access = ReturnType<typeof createAccess>;
