import type { MentionSupport, Message } from '../../src/ports/index.js';

const SNOWFLAKE = /^\d{17,20}$/;

/** Whom Discord can ping on a match: a role (`<@&id>`) or a member (`<@id>`), by snowflake. */
export const DISCORD_MENTIONS: MentionSupport = {
  kinds: ['role', 'user'],
  hint: 'role:<role id> or user:<user id>, 17 to 20 digits',
  problem(target) {
    return SNOWFLAKE.test(target.id) ? undefined : 'a Discord id is 17 to 20 digits';
  },
};

/** What a message body says of mentions: the `content` that pings, and `allowed_mentions`. */
export interface DiscordMentions {
  /** `<@&role> <@user>`, or undefined when the message pings nobody. */
  content?: string;
  /**
   * `parse: []` always, so nothing in the text (an `@everyone` in a comment, a `<@id>` in a title)
   * ever pings; the configured roles and users are named, and only they can be.
   */
  allowed_mentions: { parse: never[]; roles?: string[]; users?: string[] };
}

/** The configured mentions as Discord sends them; only ids of the right shape are ever named. */
export function discordMentions(message: Pick<Message, 'mentions'>): DiscordMentions {
  const roles = (message.mentions ?? []).filter((m) => m.kind === 'role' && SNOWFLAKE.test(m.id));
  const users = (message.mentions ?? []).filter((m) => m.kind === 'user' && SNOWFLAKE.test(m.id));
  if (roles.length === 0 && users.length === 0) return { allowed_mentions: { parse: [] } };
  const content = [...roles.map((r) => `<@&${r.id}>`), ...users.map((u) => `<@${u.id}>`)].join(' ');
  return {
    content,
    allowed_mentions: {
      parse: [],
      ...(roles.length > 0 ? { roles: roles.map((r) => r.id) } : {}),
      ...(users.length > 0 ? { users: users.map((u) => u.id) } : {}),
    },
  };
}
