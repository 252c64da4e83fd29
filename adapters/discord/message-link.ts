import type { Destination, MessageReference } from '../../src/ports/index.js';
import type { RawInteraction } from './interaction-payload.js';

const SNOWFLAKE = /^\d{1,25}$/;

/**
 * A Discord message link, `https://discord.com/channels/<server>/<channel>/<message>`: the
 * channel the message itself lives in (a thread's, for a reply or a forum post), in the
 * destination's server. Undefined when the server is not known (a route seeded without it).
 */
export function discordMessageLink(
  destination: Destination,
  reference: MessageReference,
): string | undefined {
  const server = destination.workspaceId;
  const channel = reference.channelId ?? destination.channelId;
  if (server === undefined || ![server, channel, reference.messageId].every((id) => SNOWFLAKE.test(id)))
    return undefined;
  return `https://discord.com/channels/${server}/${channel}/${reference.messageId}`;
}

/** Most channels whose server is remembered from interactions: the least recently heard from go first. */
const REMEMBERED_CHANNELS = 10_000;

/**
 * Which server a channel is in, for a destination that does not say (a route from SUBSCRIPTIONS
 * names no server): the gateway's cache of the bot's servers' channels, or the server an
 * interaction from the channel named (asking `/directory why` there is one).
 */
export function createChannelServers(cachedServerOf: (channelId: string) => string | undefined) {
  const learnt = new Map<string, string>();
  return {
    /** Remembers the server of the channel an interaction came from. */
    learn(interaction: Pick<RawInteraction, 'guild_id' | 'channel_id' | 'channel'>): void {
      const channelId = interaction.channel_id ?? interaction.channel?.id;
      if (interaction.guild_id === undefined || channelId === undefined) return;
      learnt.delete(channelId);
      learnt.set(channelId, interaction.guild_id);
      if (learnt.size > REMEMBERED_CHANNELS) {
        const oldest = learnt.keys().next().value;
        if (oldest !== undefined) learnt.delete(oldest);
      }
    },
    /** The destination with its server, when it names none and the server is known. */
    withServer(destination: Destination): Destination {
      if (destination.workspaceId !== undefined || destination.direct === true) return destination;
      const server = learnt.get(destination.channelId) ?? cachedServerOf(destination.channelId);
      return server === undefined ? destination : { ...destination, workspaceId: server };
    },
  };
}
