import type Keyv from 'keyv';
import type { Clock } from '../ports/index.js';
import type { LeaseBackend } from '../store/index.js';
import { LockedDocument } from '../store/index.js';

/**
 * A channel's time zone, set with `/directory timezone <Zone>`: the zone every schedule of the
 * channel is read in unless a subscription names its own (`--tz`). What is stored about the
 * person is their platform user id (docs/privacy.md lists it).
 */
export interface ChannelZone {
  platform: string;
  channelId: string;
  /** Slack team or Discord server the command came from (what `workspace forget` finds it by). */
  workspaceId?: string;
  /** An IANA zone, in Intl's spelling (`Europe/Berlin`). */
  zone: string;
  /** Platform user id of who set it, and when (epoch ms). */
  setBy: string;
  setAt: number;
}

/** The one store document holding every channel's zone (docs/privacy.md lists it). */
export const CHANNEL_ZONES_KEY = 'channel-zones';
/** The lease serialising changes to it. */
export const CHANNEL_ZONES_WRITE_LOCK = 'channel-zones-write';

/**
 * Channel zones in one store document, like reminders: few (one per channel that set one),
 * changed by a command on any instance, read when a schedule is computed.
 */
export class ChannelZoneRepository {
  readonly #document: LockedDocument<ChannelZone[]>;
  readonly #clock: Clock;

  constructor(options: { keyv: Keyv; leases: LeaseBackend; clock: Clock }) {
    this.#clock = options.clock;
    this.#document = new LockedDocument<ChannelZone[]>({
      keyv: options.keyv,
      leases: options.leases,
      key: CHANNEL_ZONES_KEY,
      lockName: CHANNEL_ZONES_WRITE_LOCK,
      empty: () => [],
    });
  }

  list(): Promise<ChannelZone[]> {
    return this.#document.read();
  }

  async get(platform: string, channelId: string): Promise<ChannelZone | undefined> {
    return (await this.list()).find((z) => z.platform === platform && z.channelId === channelId);
  }

  /** Sets (or replaces) the channel's zone; answers the zone it had before, if any. */
  set(input: Omit<ChannelZone, 'setAt'>): Promise<ChannelZone | undefined> {
    return this.#document.update((all) => {
      const before = all.find((z) => z.platform === input.platform && z.channelId === input.channelId);
      const entry: ChannelZone = { ...input, setAt: this.#clock.now() };
      return { next: [...all.filter((z) => z !== before), entry], result: before };
    });
  }

  /** Forgets the channel's zone (its schedules fall back to the workspace's); answers what was removed. */
  reset(platform: string, channelId: string): Promise<ChannelZone | undefined> {
    return this.#document.update((all) => {
      const found = all.find((z) => z.platform === platform && z.channelId === channelId);
      if (!found) return { result: undefined };
      return { next: all.filter((z) => z !== found), result: found };
    });
  }

  /** Removes every zone set from one workspace and returns them. */
  removeWorkspace(platform: string, workspaceId: string): Promise<ChannelZone[]> {
    return this.#document.update((all) => {
      const removed = all.filter((z) => z.platform === platform && z.workspaceId === workspaceId);
      if (removed.length === 0) return { result: removed };
      return { next: all.filter((z) => !removed.includes(z)), result: removed };
    });
  }
}
