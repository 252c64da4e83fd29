import type { MentionSupport, MentionTarget, Message } from '../../src/ports/index.js';

/** Slack ids: people `U…` (or `W…` on Enterprise Grid), user groups `S…`. */
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const GROUP_ID = /^S[A-Z0-9]{2,20}$/;

/** Whom Slack can ping on a match: a user group (`<!subteam^S…>`) or a person (`<@U…>`). */
export const SLACK_MENTIONS: MentionSupport = {
  kinds: ['group', 'user'],
  hint: 'group:<S… user group id> or user:<U… member id>',
  problem(target) {
    if (target.kind === 'group' && !GROUP_ID.test(target.id)) return 'a Slack user group id starts with S';
    if (target.kind === 'user' && !USER_ID.test(target.id)) return 'a Slack member id starts with U or W';
    return undefined;
  },
};

function token(target: MentionTarget): string | undefined {
  // Checked again here: only an id of the right shape ever becomes markup.
  if (target.kind === 'group' && GROUP_ID.test(target.id)) return `<!subteam^${target.id}>`;
  if (target.kind === 'user' && USER_ID.test(target.id)) return `<@${target.id}>`;
  return undefined;
}

/**
 * The message's configured mentions as Slack markup (`<!subteam^S0123> <@U0456>`), or '' when it
 * has none. Built from ids alone: a label is never written into the markup, so nothing but the
 * configured ids can be pinged.
 */
export function slackMentionLine(message: Pick<Message, 'mentions'>): string {
  return (message.mentions ?? [])
    .map(token)
    .filter((t) => t !== undefined)
    .join(' ');
}
