import type { MentionSupport, MentionTarget } from '../ports/index.js';
import { parseMentions } from '../subscriptions/index.js';
import { splitList } from './arg-formats.js';
import type { OptionSpec, ParsedArgs } from './command-spec.js';

/**
 * `--mention` (repeatable; each a target or a comma list of them) and `--mention-on`: whom a match
 * pings. Only the person subscribing (a channel manager or admin: `subscribe` is a manage command)
 * sets them, and only targets the channel's platform can ping are accepted.
 */
export const MENTION_OPTIONS: OptionSpec[] = [
  {
    name: 'mention',
    description: 'Ping these on a match: role:<id>, group:<id> (a user group) or user:<id>; repeatable',
    type: 'string',
    required: false,
    positional: false,
    maxLength: 500,
    repeatable: true,
  },
  {
    name: 'mention-on',
    description: 'Ping only for items mentioning any of these words (comma list); default every item',
    type: 'string',
    required: false,
    positional: false,
    maxLength: 500,
    repeatable: true,
    aliases: ['mention_on'],
  },
];

/** The mentions from parsed flags, checked against what `platform` can ping. */
export function mentionsFromArgs(
  args: ParsedArgs,
  platform: string,
  support: MentionSupport | undefined,
):
  | { ok: true; addressing: { mentions?: MentionTarget[]; mentionOn?: string[] } }
  | { ok: false; problem: string; option: string } {
  const values = Array.isArray(args['mention']) ? args['mention'].map(String) : [];
  const parsed = parseMentions(values, platform, support);
  if (!parsed.ok) return { ok: false, problem: `--mention: ${parsed.problem}.`, option: 'mention' };
  const words = Array.isArray(args['mention-on']) ? splitList(args['mention-on'].map(String)) : [];
  if (words.length > 0 && parsed.mentions.length === 0) {
    return {
      ok: false,
      problem: '--mention-on needs --mention (whom to ping on a match).',
      option: 'mention-on',
    };
  }
  if (words.some((word) => word.length > 100) || words.length > 20) {
    return {
      ok: false,
      problem: '--mention-on takes at most 20 words of at most 100 characters.',
      option: 'mention-on',
    };
  }
  return {
    ok: true,
    addressing: {
      ...(parsed.mentions.length > 0 ? { mentions: parsed.mentions } : {}),
      ...(words.length > 0 ? { mentionOn: words } : {}),
    },
  };
}
