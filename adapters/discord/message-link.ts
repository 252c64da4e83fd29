import type { Destination, MessageReference } from '../../src/ports/index.js';

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
