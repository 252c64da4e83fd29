import type Keyv from 'keyv';
import type { Clock } from '../ports/index.js';
import type { LeaseBackend } from '../store/index.js';
import { LockedDocument } from '../store/index.js';

/** Where a change to a channel's subscriptions was made. */
export type ChangeSurface = 'command' | 'form' | 'button' | 'home' | 'panel';

/** One change to a channel's subscriptions: who, what, when and what the bot answered. */
export interface ChannelChange {
  at: number;
  /** The platform user id of whoever made it (`env` for SUBSCRIPTIONS). */
  by: string;
  /** Their display name when the platform gave one; plain text, escaped wherever it is shown. */
  byName?: string;
  via: ChangeSurface;
  /** The command it ran, as typed text (`pause s1a2b3c`, `subscribe comments --keyword ai`). */
  command: string;
  /** The bot's answer, its first line: what changed. */
  result: string;
}

/** Newest changes kept per channel: a page of history, not an audit archive. */
export const CHANNEL_HISTORY_LIMIT = 100;
/** How long a channel's history is kept after its last change (docs/privacy.md). */
export const CHANNEL_HISTORY_TTL_MS = 180 * 86_400_000;

/** The store key of one channel's history; the workspace comes first so forgetting one is a prefix. */
export function channelHistoryKey(
  platform: string,
  workspaceId: string | undefined,
  channelId: string,
): string {
  return `channel-history:${platform}:${workspaceId ?? '-'}:${channelId}`;
}

/**
 * Every change made to a channel's subscriptions, newest first and bounded, whichever surface
 * made it (a typed command, a form, a button, the App Home, the control panel): the channel's
 * history as the control panel shows it. One small document per channel, changed under a lease so
 * two instances recording at once both keep their line.
 */
export class ChannelHistory {
  readonly #keyv: Keyv;
  readonly #leases: LeaseBackend;
  readonly #clock: Clock;

  constructor(options: { keyv: Keyv; leases: LeaseBackend; clock: Clock }) {
    this.#keyv = options.keyv;
    this.#leases = options.leases;
    this.#clock = options.clock;
  }

  #document(platform: string, workspaceId: string | undefined, channelId: string) {
    const key = channelHistoryKey(platform, workspaceId, channelId);
    return new LockedDocument<ChannelChange[]>({
      keyv: this.#keyv,
      leases: this.#leases,
      key,
      lockName: `lock:${key}`,
      empty: () => [],
      ttlMs: CHANNEL_HISTORY_TTL_MS,
    });
  }

  /** Records one change (its `at` is now unless given). */
  async record(
    where: { platform: string; workspaceId?: string | undefined; channelId: string },
    change: Omit<ChannelChange, 'at'> & { at?: number },
  ): Promise<void> {
    const entry: ChannelChange = { ...change, at: change.at ?? this.#clock.now() };
    await this.#document(where.platform, where.workspaceId, where.channelId).update((current) => ({
      next: [entry, ...current].slice(0, CHANNEL_HISTORY_LIMIT),
      result: undefined,
    }));
  }

  /** The channel's changes, newest first. */
  async recent(where: {
    platform: string;
    workspaceId?: string | undefined;
    channelId: string;
  }): Promise<ChannelChange[]> {
    return this.#document(where.platform, where.workspaceId, where.channelId).read();
  }
}
