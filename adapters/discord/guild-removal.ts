import { GatewayDispatchEvents } from 'discord.js';
import type { AdapterContext, DeliveryOutcome, Destination } from '../../src/ports/index.js';

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
 * Missing Access is not enough: it also means one channel closed to the bot.
 */
export function removedGuildOf(destination: Destination, outcome: DeliveryOutcome): string | undefined {
  if (outcome.status !== 'rejected' || outcome.code !== 'unknown_guild') return undefined;
  return destination.workspaceId;
}
