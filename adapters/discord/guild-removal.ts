import { DiscordAPIError, GatewayDispatchEvents, type REST, Routes } from 'discord.js';
import type {
  AdapterContext,
  DeliveryOutcome,
  Destination,
  RemovalCheck,
  WorkspaceMembership,
} from '../../src/ports/index.js';

type WorkspaceRemoved = NonNullable<AdapterContext['workspaceRemoved']>;

/** Where raw gateway dispatches arrive (discord.js's `client.ws`). */
interface GatewayDispatches {
  on(event: string, listener: (data: unknown) => void): unknown;
}

/**
 * GUILD_DELETE with no `unavailable` flag means the bot was removed from the server (kicked, or
 * the server deleted); with `unavailable: true` it is only an outage, and nothing is forgotten.
 * The Guilds intent the gateway already asks for delivers it.
 */
export function watchGuildRemoval(dispatches: GatewayDispatches, workspaceRemoved: WorkspaceRemoved): void {
  dispatches.on(GatewayDispatchEvents.GuildDelete, (data) => {
    const guild = data as { id?: unknown; unavailable?: unknown };
    if (typeof guild.id !== 'string' || guild.unavailable === true) return;
    void workspaceRemoved({ platform: 'discord', id: guild.id }, 'guild_removed');
  });
}

/**
 * Without the gateway (HTTP interactions only) no GUILD_DELETE arrives; a post answered with
 * Unknown Guild (10004) says the same of the destination's server, when the server is known.
 * Missing Access alone is not enough: it also means one channel closed to the bot (see
 * `discordRemovalCheck`).
 */
export function removedGuildOf(destination: Destination, outcome: DeliveryOutcome): string | undefined {
  if (outcome.status !== 'rejected' || outcome.code !== 'unknown_guild') return undefined;
  return destination.workspaceId;
}

/** Missing Access: what GET /guilds/{id} answers a bot that is not (or no longer) in the server. */
const NOT_A_MEMBER = 50001;
/** Unknown Guild: the server was deleted. */
const UNKNOWN_GUILD = 10004;

/**
 * A kicked bot is never told without the gateway: its posts to every channel of the server
 * answer 403 Missing Access (50001), as do those to a channel closed to it by a permission
 * change; a deleted server's channels answer 404 Unknown Channel (10003). When every subscribed
 * channel of a server answers so, GET /guilds/{id} tells the cases apart: 200 for a server the
 * bot is still in, Missing Access for one it was removed from, Unknown Guild for one deleted.
 * Anything else (401, 5xx, network) is `unknown`, and nothing is forgotten.
 */
export function discordRemovalCheck(rest: REST): RemovalCheck {
  return {
    lostChannelCodes: ['missing_access', 'unknown_channel'],
    async membership(guildId: string): Promise<WorkspaceMembership> {
      try {
        await rest.get(Routes.guild(guildId));
        return 'member';
      } catch (error) {
        if (!(error instanceof DiscordAPIError)) return 'unknown';
        return error.code === NOT_A_MEMBER || error.code === UNKNOWN_GUILD ? 'removed' : 'unknown';
      }
    },
  };
}
