/**
 * Mentions on a match (`--mention`, `--mention-on`): the people a subscription pings when an item
 * arrives. A mention target only ever comes from a subscription's configuration, set by someone
 * allowed to change it; the core copies it onto the message (`Message.mentions`) and the renderer
 * pings exactly those targets and nothing else. Text from the directory never becomes a mention.
 */

/**
 * What a target is: a role (Discord), a user group (Slack `<!subteam^…>`, a Mattermost group), a
 * user, or a tag (Teams tags). Which of them a platform knows, and what its ids look like, the
 * platform's adapter says (`MentionSupport`).
 */
export const MENTION_KINDS = ['role', 'group', 'user', 'tag'] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

export interface MentionTarget {
  kind: MentionKind;
  /** The platform's id for it: a Discord snowflake, a Slack `U…`/`S…` id, a Teams UPN, a Mattermost name. */
  id: string;
  /**
   * The name shown for it where the platform writes one (Teams `<at>Name</at>`, Slack's handle);
   * plain text from the configuration, escaped by the renderer like any other text.
   */
  label?: string;
}

/** At most this many targets on one subscription (Discord allows 100 users and 100 roles per message). */
export const MAX_MENTIONS = 20;

/** What a platform can mention, for checking a target when a subscription is configured. */
export interface MentionSupport {
  /** The kinds this platform can ping. */
  kinds: readonly MentionKind[];
  /** Why `target` cannot be mentioned here (a malformed id), or undefined when it can. */
  problem(target: MentionTarget): string | undefined;
  /** How targets are written for this platform, for error messages: `role:<id> or user:<id>`. */
  hint: string;
}

/** `kind:id` as typed in `--mention` and in SUBSCRIPTIONS, with `|label` when there is one. */
export function mentionText(target: MentionTarget): string {
  return `${target.kind}:${target.id}${target.label === undefined ? '' : `|${target.label}`}`;
}

/** Two lists of targets name the same targets in the same order. */
export function sameMentions(
  a: readonly MentionTarget[] | undefined,
  b: readonly MentionTarget[] | undefined,
) {
  return (a ?? []).map(mentionText).join(' ') === (b ?? []).map(mentionText).join(' ');
}
