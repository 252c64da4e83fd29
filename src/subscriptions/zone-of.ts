import type { ScheduleOptions, ZoneOf } from '../schedule/index.js';
import { checkTimeZone } from '../schedule/index.js';
import type { ChannelZoneRepository } from './channel-zones.js';

/** Where a schedule's zone came from, most specific first; `default` is UTC. */
export type ZoneSource = 'subscription' | 'channel' | 'workspace' | 'default';

export interface ResolvedZone {
  zone: string;
  source: ZoneSource;
}

/** The zone a workspace (Slack team, Discord server) lives in, where its platform says; else undefined. */
export type WorkspaceZoneLookup = (
  platform: string,
  workspaceId: string | undefined,
) => Promise<string | undefined>;

export interface ZoneResolver {
  /** The zone and why: the subscription's `--tz`, the channel's, the workspace's, or UTC. */
  resolve(target: Parameters<ZoneOf>[0]): Promise<ResolvedZone>;
  /** The same, zone only: what the schedule runner takes. */
  zoneOf: ZoneOf;
}

/**
 * Resolves a subscription's zone at use (never stored on it), so `/directory timezone` moves
 * every schedule of a channel at once: `--tz` → the channel's zone → the workspace's default
 * (Slack: the installer's `tz`; Discord exposes none) → UTC. A platform answer that is not an
 * IANA zone is ignored, and a failed lookup falls through to UTC: a schedule always has a zone.
 */
export function createZoneResolver(options: {
  channelZones: Pick<ChannelZoneRepository, 'get'>;
  workspaceZone?: WorkspaceZoneLookup;
}): ZoneResolver {
  async function resolve(target: {
    platform: string;
    channelId: string;
    workspaceId?: string;
    schedule?: ScheduleOptions;
  }): Promise<ResolvedZone> {
    if (target.schedule?.timeZone !== undefined)
      return { zone: target.schedule.timeZone, source: 'subscription' };
    const channel = await options.channelZones.get(target.platform, target.channelId);
    if (channel !== undefined) return { zone: channel.zone, source: 'channel' };
    const workspace = await options
      .workspaceZone?.(target.platform, target.workspaceId)
      .catch(() => undefined);
    const checked = workspace === undefined ? undefined : checkTimeZone(workspace);
    if (checked?.ok) return { zone: checked.zone, source: 'workspace' };
    return { zone: 'UTC', source: 'default' };
  }
  return { resolve, zoneOf: async (target) => (await resolve(target)).zone };
}

/** `createZoneResolver(…).zoneOf`: the `ZoneOf` the engine's schedule runner takes. */
export function createZoneOf(options: Parameters<typeof createZoneResolver>[0]): ZoneOf {
  return createZoneResolver(options).zoneOf;
}
