import { z } from 'zod';
import { FEED_NAMES } from '../feeds/feed-names.js';
import {
  isCalendarDay,
  isCalendarMonth,
  parsePostRef,
  SLUG_PATTERN,
  USERNAME_PATTERN,
} from './arg-formats.js';
import type { CommandSpec, OptionSpec } from './command-spec.js';

/**
 * Most results one reply carries: Discord shows at most 10 embeds per message, and a
 * longer list would not be read in a chat anyway.
 */
export const MAX_RESULTS = 10;

const slug = (what: string) =>
  z.string().regex(SLUG_PATTERN, { error: `a ${what} slug: letters, digits and dashes` });
const username = z.string().regex(USERNAME_PATTERN, { error: 'a username: letters, digits, _ . -' });
const count = (max: number) =>
  z
    .number()
    .int()
    .min(1, { error: 'must be at least 1' })
    .max(max, { error: `must be at most ${max}` });

const postRef: OptionSpec = {
  name: 'post',
  description: 'Post id, slug or link',
  type: 'string',
  required: true,
  positional: true,
  maxLength: 300,
  schema: z
    .string()
    .refine((value) => parsePostRef(value) !== undefined, { error: 'a post id, slug or directory link' }),
};

const HELP: CommandSpec = {
  name: 'help',
  kind: 'local',
  description: 'How to use /directory, or one command in detail',
  usage: 'help [command]',
  examples: ['help', 'help subscribe'],
  managesChannel: false,
  options: [
    {
      name: 'command',
      description: 'The command to explain',
      type: 'string',
      required: false,
      positional: true,
      maxLength: 32,
      schema: z.string().regex(/^[a-z-]+$/i, { error: 'a command name' }),
    },
  ],
};

const POST: CommandSpec = {
  name: 'post',
  kind: 'lookup',
  description: 'One post: tagline, votes, comments, makers, topics and link',
  usage: 'post <id|slug|url>',
  examples: ['post 42', 'post notion-ai', 'post https://www.example-directory.test/posts/notion-ai'],
  managesChannel: false,
  options: [postRef],
};

const POSTS: CommandSpec = {
  name: 'posts',
  kind: 'lookup',
  description: "A day's posts by votes (UTC days)",
  usage: 'posts [today|YYYY-MM-DD] [--top N]',
  examples: ['posts', 'posts 2025-01-31 --top 3'],
  managesChannel: false,
  options: [
    {
      name: 'day',
      description: 'today (the default) or a date like 2025-01-31',
      type: 'string',
      required: false,
      positional: true,
      maxLength: 10,
      schema: z.string().refine((value) => value.toLowerCase() === 'today' || isCalendarDay(value), {
        error: 'today or a date like 2025-01-31',
      }),
    },
    {
      name: 'top',
      description: `How many posts (1-${MAX_RESULTS}, default 5)`,
      type: 'integer',
      required: false,
      positional: false,
      minValue: 1,
      maxValue: MAX_RESULTS,
      schema: count(MAX_RESULTS),
    },
  ],
};

const COMMENTS: CommandSpec = {
  name: 'comments',
  kind: 'lookup',
  description: 'The latest comments on a post',
  usage: 'comments <post id|slug> [--limit N]',
  examples: ['comments 42', 'comments notion-ai --limit 3'],
  managesChannel: false,
  options: [
    { ...postRef, description: 'Post id or slug' },
    {
      name: 'limit',
      description: `How many comments (1-${MAX_RESULTS}, default 5)`,
      type: 'integer',
      required: false,
      positional: false,
      minValue: 1,
      maxValue: MAX_RESULTS,
      schema: count(MAX_RESULTS),
    },
  ],
};

const COLLECTION: CommandSpec = {
  name: 'collection',
  kind: 'lookup',
  description: 'One collection',
  usage: 'collection <slug>',
  examples: ['collection ai-tools'],
  managesChannel: false,
  options: [
    {
      name: 'slug',
      description: 'Collection slug',
      type: 'string',
      required: true,
      positional: true,
      maxLength: 100,
      schema: slug('collection'),
    },
  ],
};

const COLLECTIONS: CommandSpec = {
  name: 'collections',
  kind: 'lookup',
  description: 'Recent collections, featured ones or those of one user',
  usage: 'collections [featured] [--by <username>]',
  examples: ['collections featured', 'collections --by jane_doe'],
  managesChannel: false,
  options: [
    {
      name: 'featured',
      description: 'Only featured collections',
      type: 'string',
      required: false,
      positional: true,
      choices: ['featured'],
      maxLength: 8,
      schema: z
        .string()
        .refine((value) => value.toLowerCase() === 'featured', { error: 'the word "featured" or nothing' }),
    },
    {
      name: 'by',
      description: 'Only collections made by this username',
      type: 'string',
      required: false,
      positional: false,
      maxLength: 51,
      autocomplete: false,
      schema: username,
    },
  ],
};

const LIVE: CommandSpec = {
  name: 'live',
  kind: 'lookup',
  description: 'Live events: upcoming, in a month (UTC), or without a date',
  usage: 'live [upcoming|YYYY-MM|undated] [--video]',
  examples: ['live', 'live 2025-03 --video', 'live undated'],
  managesChannel: false,
  options: [
    {
      name: 'when',
      description: 'upcoming (the default), a UTC month like 2025-03, or undated',
      type: 'string',
      required: false,
      positional: true,
      maxLength: 8,
      schema: z
        .string()
        .refine((value) => ['upcoming', 'undated'].includes(value.toLowerCase()) || isCalendarMonth(value), {
          error: 'upcoming, undated or a month like 2025-03',
        }),
    },
    {
      name: 'video',
      description: 'Only on-camera events',
      type: 'boolean',
      required: false,
      positional: false,
    },
  ],
};

const USER: CommandSpec = {
  name: 'user',
  kind: 'lookup',
  description: 'A user, their collections and recent comments',
  usage: 'user <username>',
  examples: ['user jane_doe'],
  managesChannel: false,
  options: [
    {
      name: 'username',
      description: 'Username on the directory',
      type: 'string',
      required: true,
      positional: true,
      maxLength: 51,
      schema: username,
    },
  ],
};

const SUBSCRIBE: CommandSpec = {
  name: 'subscribe',
  kind: 'manage',
  description: 'Follow a feed in this channel, optionally filtered',
  usage:
    'subscribe <posts|comments|collections|live|notifications> [--post <id|slug>] [--user <username>] [--keyword <words>] [--exclude <words>] [--video] [--min-votes N] [--remind N]',
  examples: [
    'subscribe posts --min-votes 50',
    'subscribe comments --keyword ai,ml --exclude crypto',
    'subscribe comments --post notion-ai',
    'subscribe live --video --remind 15',
  ],
  managesChannel: true,
  options: [
    {
      name: 'feed',
      description: 'The feed to follow',
      type: 'string',
      required: true,
      positional: true,
      choices: FEED_NAMES,
      maxLength: 13,
      schema: z.enum(FEED_NAMES, { error: FEED_NAMES.join(', ') }),
    },
    {
      name: 'post',
      description: 'comments: only on this post (id or slug)',
      type: 'string',
      required: false,
      positional: false,
      maxLength: 100,
      schema: slug('post'),
    },
    {
      name: 'user',
      description: 'posts, comments, collections: only by this username',
      type: 'string',
      required: false,
      positional: false,
      maxLength: 51,
      schema: username,
    },
    {
      name: 'keyword',
      description: 'Only items mentioning any of these words (comma list)',
      type: 'string',
      required: false,
      positional: false,
      maxLength: 500,
      repeatable: true,
      aliases: ['keywords'],
    },
    {
      name: 'exclude',
      description: 'Skip items mentioning any of these words (comma list)',
      type: 'string',
      required: false,
      positional: false,
      maxLength: 500,
      repeatable: true,
    },
    {
      name: 'video',
      description: 'live: only on-camera events',
      type: 'boolean',
      required: false,
      positional: false,
    },
    {
      name: 'min-votes',
      description: 'posts: only with at least this many votes',
      type: 'integer',
      required: false,
      positional: false,
      minValue: 0,
      maxValue: 1_000_000,
      aliases: ['min_votes', 'minvotes'],
      schema: z
        .number()
        .int()
        .min(0, { error: 'must be 0 or more' })
        .max(1_000_000, { error: 'must be at most 1000000' }),
    },
    {
      name: 'remind',
      description: 'live: remind this many minutes before the start (0 = no reminder)',
      type: 'integer',
      required: false,
      positional: false,
      minValue: 0,
      maxValue: 1440,
      schema: z
        .number()
        .int()
        .min(0, { error: 'must be 0 or more' })
        .max(1440, { error: 'must be at most 1440 (a day)' }),
    },
  ],
};

const UNSUBSCRIBE: CommandSpec = {
  name: 'unsubscribe',
  kind: 'manage',
  description: "Stop one of this channel's subscriptions (by id) or every one of a feed",
  usage: 'unsubscribe <id|feed>',
  examples: ['unsubscribe s1a2b3c', 'unsubscribe comments'],
  managesChannel: true,
  options: [
    {
      name: 'target',
      description: 'Subscription id (see subscriptions) or feed name',
      type: 'string',
      required: true,
      positional: true,
      maxLength: 32,
      autocomplete: true,
      schema: z.string().regex(/^[a-z0-9-]+$/i, { error: 'a subscription id like s1a2b3c or a feed name' }),
    },
  ],
};

const SUBSCRIPTIONS: CommandSpec = {
  name: 'subscriptions',
  kind: 'local',
  description: "This channel's subscriptions",
  usage: 'subscriptions',
  examples: ['subscriptions'],
  managesChannel: false,
  options: [],
};

const STATUS: CommandSpec = {
  name: 'status',
  kind: 'local',
  description: 'Quota left, feed health and paused subscriptions',
  usage: 'status',
  examples: ['status'],
  managesChannel: false,
  options: [],
};

/** Every `/directory` command, in the order help lists them. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  HELP,
  POST,
  POSTS,
  COMMENTS,
  COLLECTION,
  COLLECTIONS,
  LIVE,
  USER,
  SUBSCRIBE,
  UNSUBSCRIBE,
  SUBSCRIPTIONS,
  STATUS,
];
