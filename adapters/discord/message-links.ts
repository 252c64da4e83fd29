import type { ChatAdapter, Destination } from '../../src/ports/index.js';
import type { RawInteraction } from './interaction-payload.js';

/** Most channels whose server is remembered from interactions: old ones go first. */
const REMEMBERED_CHANNELS = 10_000;

/**
 * Links to the bot's messages, as Discord's "Copy Message Link" gives them:
 * `https://discord.com/channels/<server>/<channel>/<message>`, the channel being the thread a
 * reply or forum post sits in. A destination names its server when a `/directory subscribe`
 * there made it; otherwise the server is what the gateway's cache says, or what an interaction
 * from the channel said (the `/directory why` asking about it among them). No call to Discord.
 */
export function createDiscordMessageLinks(cachedGuildOf: (channelId: string) => string | undefined) {
  const guildOfChannel = new Map<string, string>();

  return {
    /** Remembers the server of the channel an interaction came from. */
    learn(interaction: Pick<RawInteraction, 'guild_id' | 'channel_id' | 'channel'>): void {
      const channelId = interaction.channel_id ?? interaction.channel?.id;
      if (interaction.guild_id === undefined || channelId === undefined) return;
      guildOfChannel.delete(channelId);
      guildOfChannel.set(channelId, interaction.guild_id);
      if (guildOfChannel.size > REMEMBERED_CHANNELS)
        guildOfChannel.delete(guildOfChannel.keys().next().value as string);
    },
    link: ((destination: Destination, reference) => {
      if (destination.direct === true) return undefined;
      const guild =
        destination.workspaceId ??
        guildOfChannel.get(destination.channelId) ??
        cachedGuildOf(destination.channelId);
      if (guild === undefined) return undefined;
      const channel = reference.channelId ?? destination.channelId;
      return `https://discord.com/channels/${guild}/${channel}/${reference.messageId}`;
    }) satisfies NonNullable<ChatAdapter['messageLink']>,
  };
}
