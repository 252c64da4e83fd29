import type { Subscription } from '../subscriptions/index.js';

/** A workspace every subscribed channel of which refused the bot. */
export interface LostWorkspace {
  workspaceId: string;
  /** Its subscribed channels (ids), every one paused for a refusal. */
  channelIds: string[];
  /** When the last of them was paused (epoch ms): a later refusal makes this a new case. */
  lastPausedAt: number;
}

/**
 * The workspaces of `platform` (all, or just `only`) whose every subscription is paused with one
 * of `codes`. The paused subscriptions are the tally: a channel counts once its refusal paused
 * it, and stops counting when someone subscribes there again (which resumes it) or adds a new
 * subscription, so a server with one channel still taking posts is never lost. Being stored,
 * the tally survives a restart. Routes from SUBSCRIPTIONS name no workspace and never count.
 */
export function lostWorkspaces(
  subscriptions: readonly Subscription[],
  platform: string,
  codes: readonly string[],
  only?: ReadonlySet<string>,
): LostWorkspace[] {
  const byWorkspace = new Map<string, Subscription[]>();
  for (const subscription of subscriptions) {
    const { workspaceId } = subscription;
    if (subscription.platform !== platform || workspaceId === undefined) continue;
    if (only !== undefined && !only.has(workspaceId)) continue;
    byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), subscription]);
  }
  const lost: LostWorkspace[] = [];
  for (const [workspaceId, mine] of byWorkspace) {
    if (!mine.every((s) => s.paused !== undefined && codes.includes(s.paused.code))) continue;
    lost.push({
      workspaceId,
      channelIds: [...new Set(mine.map((s) => s.channelId))].sort(),
      lastPausedAt: Math.max(...mine.map((s) => s.paused?.at ?? 0)),
    });
  }
  return lost;
}
