import { z } from 'zod';
import type { FeedName } from '../feeds/feed-names.js';
import type { ThreadSettings } from '../subscriptions/index.js';
import type { OptionSpec, ParsedArgs } from './command-spec.js';

/** `subscribe`'s thread options (issue 13): where a post's comments go in the channel. */
export const THREAD_OPTIONS: OptionSpec[] = [
  {
    name: 'threads',
    description:
      "on (default): comments go in their post's thread when the channel got the post; off: top-level",
    type: 'string',
    required: false,
    positional: false,
    choices: ['on', 'off'],
    maxLength: 10,
    schema: z.enum(['on', 'off'], { error: 'on or off' }),
  },
  {
    name: 'thread-comments',
    description: "posts: also post each delivered post's comments, in its thread",
    type: 'boolean',
    required: false,
    positional: false,
    aliases: ['thread_comments'],
  },
  {
    name: 'broadcast',
    description: 'Slack: threaded comments matching --keyword are also sent to the channel',
    type: 'boolean',
    required: false,
    positional: false,
  },
];

/** The thread settings from parsed flags, or a sentence naming the option that does not fit. */
export function threadSettingsFromArgs(
  feed: FeedName,
  args: ParsedArgs,
): { ok: true; settings: ThreadSettings } | { ok: false; problem: string; option: string } {
  const threads = args['threads'];
  if (threads !== undefined && threads !== 'on' && threads !== 'off') {
    return { ok: false, problem: '--threads expects on or off.', option: 'threads' };
  }
  const off = threads === 'off';
  const comments = args['thread-comments'] === true;
  const broadcast = args['broadcast'] === true;
  if (comments && feed !== 'posts') {
    return {
      ok: false,
      problem: `--thread-comments applies to the posts feed, not ${feed}.`,
      option: 'thread-comments',
    };
  }
  if (comments && off) {
    return {
      ok: false,
      problem: '--thread-comments needs threads on (drop --threads off).',
      option: 'thread-comments',
    };
  }
  if (broadcast && off) {
    return { ok: false, problem: '--broadcast needs threads on (drop --threads off).', option: 'broadcast' };
  }
  if (broadcast && feed !== 'comments' && !comments) {
    return {
      ok: false,
      problem:
        '--broadcast applies to threaded comments: the comments feed, or posts with --thread-comments.',
      option: 'broadcast',
    };
  }
  if (broadcast && !Array.isArray(args['keyword'])) {
    return {
      ok: false,
      problem: '--broadcast sends comments matching --keyword to the channel: give --keyword too.',
      option: 'broadcast',
    };
  }
  return {
    ok: true,
    settings: {
      ...(off ? { off: true as const } : {}),
      ...(comments ? { comments: true as const } : {}),
      ...(broadcast ? { broadcast: true as const } : {}),
    },
  };
}
