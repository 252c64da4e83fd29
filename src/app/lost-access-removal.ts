import type { EngineEvent } from '../engine/index.js';
import type { AdapterContext, ChatAdapter, Logger, RemovalCheck } from '../ports/index.js';
import type { SubscriptionRepository } from '../subscriptions/index.js';
import { lostWorkspaces } from '../workspaces/index.js';

export interface LostAccessDeps {
  subscriptions: Pick<SubscriptionRepository, 'list'>;
  adapters: readonly ChatAdapter[];
  workspaceRemoved: NonNullable<AdapterContext['workspaceRemoved']>;
  logger: Logger;
}

export interface LostAccessRemoval {
  /** Sees every engine event: a channel refused for good may be its server's last one. */
  observe(event: EngineEvent): void;
  /**
   * Asks about every workspace already lost on every channel: at start, for a confirmation a
   * restart or a failed request cut short (nothing else would ask again: paused channels are
   * not posted to). Resolves when done; never rejects.
   */
  sweep(): Promise<void>;
}

/**
 * A removal the platform does not announce (a Discord bot kicked while running without the
 * gateway): when every subscribed channel of a workspace has refused the bot with one of its
 * adapter's `lostChannelCodes` — each one's subscriptions paused for it, as for any refusal —
 * the adapter asks the platform, and only a `removed` answer forgets the workspace
 * (`missing_access`). A server where some channels still take posts, or whose platform says
 * the bot is still in it, keeps everything, its refused channels paused.
 */
export function createLostAccessRemoval(deps: LostAccessDeps): LostAccessRemoval {
  const checks = new Map<string, RemovalCheck>();
  for (const adapter of deps.adapters)
    if (adapter.removalCheck !== undefined) checks.set(adapter.platform, adapter.removalCheck);
  // The platform said the bot is still in these, at this last refusal: ask again only after a newer one.
  const stillIn = new Map<string, number>();
  // One check at a time, each reading the subscriptions afresh: two channels refused together
  // ask once, and the second finds the workspace already forgotten.
  let queue: Promise<void> = Promise.resolve();

  const check = async (platform: string, channelId?: string) => {
    const removalCheck = checks.get(platform);
    if (removalCheck === undefined || (platform !== 'discord' && platform !== 'slack')) return;
    const subscriptions = await deps.subscriptions.list();
    const only =
      channelId === undefined
        ? undefined
        : new Set(
            subscriptions.flatMap((s) =>
              s.platform === platform && s.channelId === channelId && s.workspaceId ? [s.workspaceId] : [],
            ),
          );
    for (const lost of lostWorkspaces(subscriptions, platform, removalCheck.lostChannelCodes, only)) {
      const key = `${platform}:${lost.workspaceId}`;
      if (stillIn.get(key) === lost.lastPausedAt) continue;
      const membership = await removalCheck.membership(lost.workspaceId);
      const where = { platform, workspace: lost.workspaceId, channels: lost.channelIds.length };
      if (membership === 'removed') {
        await deps.workspaceRemoved({ platform, id: lost.workspaceId }, 'missing_access');
      } else if (membership === 'member') {
        stillIn.set(key, lost.lastPausedAt);
        deps.logger.info(
          where,
          'every subscribed channel of this workspace refuses the bot, but the platform says the bot is still in it: the channels stay paused until someone subscribes there again',
        );
      } else {
        deps.logger.warn(
          where,
          'every subscribed channel of this workspace refuses the bot; asking the platform whether the bot was removed failed, so nothing is deleted (asked again at the next start)',
        );
      }
    }
  };
  const enqueue = (platform: string, channelId?: string) => {
    queue = queue
      .then(() => check(platform, channelId))
      .catch((error: unknown) =>
        deps.logger.error({ err: error, platform }, 'checking whether a workspace removed the bot failed'),
      );
    return queue;
  };

  return {
    observe(event) {
      if (event.source !== 'dispatcher' || event.type !== 'rejected') return;
      const { platform, channelId } = event.entry.destination;
      if (checks.has(platform)) void enqueue(platform, channelId);
    },
    async sweep() {
      for (const platform of checks.keys()) await enqueue(platform);
    },
  };
}
