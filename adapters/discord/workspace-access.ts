import { PermissionFlagsBits, type REST, Routes } from 'discord.js';
import type { Installation, Logger, WorkspaceAccess } from '../../src/ports/index.js';

/** The fields read from Discord's answers (GuildResponse, GuildRoleResponse, GuildMemberResponse, GuildChannelResponse). */
interface Guild {
  id: string;
  owner_id: string;
  roles?: Role[];
}
interface Role {
  id: string;
  permissions: string;
}
interface Member {
  roles: string[];
  user?: { id: string };
}
interface Overwrite {
  id: string;
  /** 0 role, 1 member. */
  type: number;
  allow: string;
  deny: string;
}
interface Channel {
  id: string;
  guild_id?: string;
  parent_id?: string | null;
  /** Threads (10, 11, 12) take their parent channel's permissions. */
  type: number;
  permission_overwrites?: Overwrite[];
}

const ALL = (1n << 64n) - 1n;
const THREAD_TYPES = new Set([10, 11, 12]);

/**
 * A member's permissions in a channel, computed as Discord documents it (Permissions, "Permission
 * Overwrites"): the server's owner has all; otherwise @everyone's and the member's roles' bits,
 * all of them with Administrator; then the channel's @everyone overwrite, the member's roles'
 * overwrites together, and the member's own overwrite, each denying then allowing. This is the
 * `member.permissions` an interaction in that channel carries, which `/directory subscribe` reads.
 */
export function channelPermissions(
  guild: Guild,
  roles: readonly Role[],
  member: Member,
  userId: string,
  channel: Channel,
): bigint {
  if (guild.owner_id === userId) return ALL;
  const bits = (value: string | undefined) =>
    value !== undefined && /^\d+$/.test(value) ? BigInt(value) : 0n;
  const everyone = roles.find((r) => r.id === guild.id);
  let base = bits(everyone?.permissions);
  for (const id of member.roles) base |= bits(roles.find((r) => r.id === id)?.permissions);
  if ((base & PermissionFlagsBits.Administrator) !== 0n) return ALL;
  const overwrites = channel.permission_overwrites ?? [];
  const everyoneOverwrite = overwrites.find((o) => o.id === guild.id);
  if (everyoneOverwrite) base = (base & ~bits(everyoneOverwrite.deny)) | bits(everyoneOverwrite.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type === 0 && member.roles.includes(o.id)) {
      allow |= bits(o.allow);
      deny |= bits(o.deny);
    }
  }
  base = (base & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === userId);
  if (own) base = (base & ~bits(own.deny)) | bits(own.allow);
  return base;
}

export interface DiscordAccessDeps {
  rest: REST;
  logger: Logger;
  now: () => number;
  /** How long the bot's server list and a channel's server are trusted. Default 5 minutes. */
  ttlMs?: number;
}

/** Servers listed per page of GET /users/@me/guilds, and pages read at most (20,000 servers). */
const PAGE = 200;
const MAX_PAGES = 100;

/**
 * Discord's answers for the control panel, asked with the bot's token: the servers the bot is in
 * (GET /users/@me/guilds), a channel's server (GET /channels/{id}), and whether a member may
 * manage a channel — Manage Channels or Administrator in that channel, computed from the server's
 * roles, the member's roles and the channel's overwrites exactly as Discord computes the
 * permissions an interaction there carries. Any failure answers "no": refusing is safe.
 */
export function createDiscordWorkspaceAccess(deps: DiscordAccessDeps): WorkspaceAccess {
  const ttlMs = deps.ttlMs ?? 5 * 60_000;
  let guilds: { value: Promise<Installation[]>; expiresAt: number } | undefined;
  const channelGuilds = new Map<string, { guildId: string | undefined; expiresAt: number }>();

  async function listGuilds(): Promise<Installation[]> {
    const all: Installation[] = [];
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const query = new URLSearchParams({ limit: String(PAGE), ...(after === undefined ? {} : { after }) });
      const found = (await deps.rest.get(Routes.userGuilds(), { query })) as { id: string; name: string }[];
      all.push(...found.map((g) => ({ id: g.id, name: g.name })));
      if (found.length < PAGE) break;
      after = found.at(-1)?.id;
    }
    return all;
  }

  async function installations(): Promise<Installation[]> {
    const now = deps.now();
    if (guilds === undefined || guilds.expiresAt <= now) {
      const value = listGuilds();
      guilds = { value, expiresAt: now + ttlMs };
      value.catch((error: unknown) => {
        deps.logger.warn({ err: error }, "could not list the bot's Discord servers");
        guilds = undefined;
      });
    }
    return guilds.value.catch(() => []);
  }

  async function channel(channelId: string): Promise<Channel | undefined> {
    if (!/^\d{17,20}$/.test(channelId)) return undefined;
    try {
      return (await deps.rest.get(Routes.channel(channelId))) as Channel;
    } catch {
      return undefined;
    }
  }

  return {
    installations,
    async installation(workspaceId) {
      return (await installations()).find((g) => g.id === workspaceId);
    },
    async workspaceOfChannel(channelId) {
      const now = deps.now();
      const hit = channelGuilds.get(channelId);
      if (hit !== undefined && hit.expiresAt > now) return hit.guildId;
      const guildId = (await channel(channelId))?.guild_id ?? undefined;
      channelGuilds.set(channelId, { guildId, expiresAt: now + ttlMs });
      return guildId;
    },
    async mayManageChannel(workspaceId, channelId, userId) {
      try {
        let target = await channel(channelId);
        if (target === undefined || target.guild_id !== workspaceId) return false;
        if (THREAD_TYPES.has(target.type) && target.parent_id) target = await channel(target.parent_id);
        if (target === undefined) return false;
        const [guild, roles, member] = await Promise.all([
          deps.rest.get(Routes.guild(workspaceId)) as Promise<Guild>,
          deps.rest.get(Routes.guildRoles(workspaceId)) as Promise<Role[]>,
          deps.rest.get(Routes.guildMember(workspaceId, userId)) as Promise<Member>,
        ]);
        const bits = channelPermissions(guild, roles, member, userId, target);
        return (bits & (PermissionFlagsBits.ManageChannels | PermissionFlagsBits.Administrator)) !== 0n;
      } catch (error) {
        deps.logger.info(
          { err: error, workspaceId, channelId },
          'could not compute Discord permissions; refusing',
        );
        return false;
      }
    },
  };
}
