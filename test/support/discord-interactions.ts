import type { CommandDefinition, CommandOptionDefinition, Message } from '../../src/ports/index.js';
import type { CommandScript } from './fake-command-handler.js';

const opt = (
  name: string,
  type: CommandOptionDefinition['type'],
  extra: Partial<CommandOptionDefinition> = {},
): CommandOptionDefinition => ({
  name,
  description: `The ${name}`,
  type,
  required: false,
  positional: false,
  ...extra,
});

/** Definitions shaped like the core's real command set. */
export const DEFINITIONS: CommandDefinition[] = [
  {
    name: 'help',
    description: 'Show what the bot can do',
    usage: 'help',
    examples: ['help'],
    options: [],
    managesChannel: false,
  },
  {
    name: 'post',
    description: 'Show a post',
    usage: 'post <id|slug|url>',
    examples: ['post 42'],
    options: [
      opt('post', 'string', {
        required: true,
        positional: true,
        autocomplete: true,
        description: 'Id, slug or URL',
      }),
    ],
    managesChannel: false,
  },
  {
    name: 'posts',
    description: 'Top posts of a day',
    usage: 'posts [date] --top N',
    examples: ['posts yesterday --top 5'],
    options: [
      opt('date', 'string', { positional: true }),
      opt('top', 'integer', { minValue: 1, maxValue: 20 }),
    ],
    managesChannel: false,
  },
  {
    name: 'comments',
    description: 'Latest comments on a post',
    usage: 'comments <post> --limit N',
    examples: ['comments 42 --limit 3'],
    options: [
      opt('post', 'string', { required: true, positional: true, autocomplete: true }),
      opt('limit', 'integer', { minValue: 1, maxValue: 10 }),
    ],
    managesChannel: false,
  },
  {
    name: 'collection',
    description: 'Show a collection',
    usage: 'collection <slug>',
    examples: ['collection ai-tools'],
    options: [opt('slug', 'string', { required: true, positional: true, autocomplete: true })],
    managesChannel: false,
  },
  {
    name: 'collections',
    description: 'List collections',
    usage: 'collections [featured] --by <user>',
    examples: ['collections featured'],
    options: [opt('featured', 'string', { positional: true, choices: ['featured'] }), opt('by', 'string')],
    managesChannel: false,
  },
  {
    name: 'live',
    description: 'Upcoming live events',
    usage: 'live [when] --video',
    examples: ['live today'],
    options: [
      opt('when', 'string', { positional: true, choices: ['today', 'tomorrow', 'week'] }),
      opt('video', 'boolean'),
    ],
    managesChannel: false,
  },
  {
    name: 'user',
    description: 'Show a user',
    usage: 'user <username>',
    examples: ['user alice'],
    options: [opt('username', 'string', { required: true, positional: true, maxLength: 64 })],
    managesChannel: false,
  },
  {
    name: 'subscribe',
    description: 'Subscribe this channel to a feed',
    usage:
      'subscribe <feed> [--post ID] [--user NAME] [--keyword WORD] [--exclude WORD] [--video] [--min-votes N] [--remind MIN]',
    examples: ['subscribe comments --keyword ai'],
    options: [
      opt('feed', 'string', {
        required: true,
        positional: true,
        choices: ['posts', 'comments', 'collections', 'live', 'notifications'],
      }),
      opt('post', 'string'),
      opt('user', 'string'),
      opt('keyword', 'string'),
      opt('exclude', 'string'),
      opt('video', 'boolean'),
      opt('min-votes', 'integer', { minValue: 0 }),
      opt('remind', 'integer', { minValue: 1, maxValue: 1440 }),
    ],
    managesChannel: true,
  },
  {
    name: 'unsubscribe',
    description: 'Remove a subscription',
    usage: 'unsubscribe <id|feed>',
    examples: ['unsubscribe comments'],
    options: [opt('target', 'string', { required: true, positional: true })],
    managesChannel: true,
  },
  {
    name: 'subscriptions',
    description: 'List this channel’s subscriptions',
    usage: 'subscriptions',
    examples: [],
    options: [],
    managesChannel: false,
  },
  {
    name: 'status',
    description: 'Bot and quota status',
    usage: 'status',
    examples: [],
    options: [],
    managesChannel: false,
  },
];

export function sampleMessage(overrides: Partial<Message> = {}): Message {
  return {
    kind: 'post',
    title: 'Directory Bot',
    url: 'https://directory.example/posts/directory-bot',
    text: 'Feeds for your team channels',
    fields: [{ name: 'Votes', value: '42', inline: true }],
    color: '#da552f',
    timestamp: '2025-01-02T03:04:05Z',
    footer: 'Directory · new post',
    fallback: 'Directory Bot — Feeds for your team channels',
    ...overrides,
  };
}

/**
 * The Discord suites' stand-in for the core (see FakeCommandHandler): definitions shaped like the
 * core's plus `slow`; `subscribe` needs Manage Channels; `explode` throws; anything else echoes.
 */
export const discordScript: CommandScript = {
  definitions: [
    ...DEFINITIONS,
    {
      name: 'slow',
      description: 'Answers late',
      usage: 'slow',
      examples: [],
      options: [],
      managesChannel: false,
    },
  ],
  answer(invocation, name) {
    switch (name) {
      case 'slow':
        return { visibility: 'ephemeral', text: 'Finally.', messages: [sampleMessage()], shareable: true };
      case 'post':
        return { visibility: 'ephemeral', text: '', messages: [sampleMessage()], shareable: true };
      case 'subscribe':
        if (!invocation.actor.canManageChannel) {
          return {
            visibility: 'ephemeral',
            text: 'You need Manage Channels to change subscriptions.',
            messages: [],
            shareable: false,
            error: { code: 'command_forbidden', usage: 'subscribe <feed> [--keyword WORD]' },
          };
        }
        return { visibility: 'in_channel', text: 'Subscribed this channel.', messages: [], shareable: false };
      case 'explode':
        throw new Error('the core fell over');
      default:
        return {
          visibility: 'ephemeral',
          text: `You said: ${invocation.text}`,
          messages: [],
          shareable: false,
        };
    }
  },
};

export const APP_ID = '100000000000000001';
export const GUILD_ID = '100000000000000002';
export const CHANNEL_ID = '100000000000000003';
export const OTHER_CHANNEL_ID = '100000000000000004';
/** Manage Channels (1 << 4) plus View Channel and Send Messages. */
export const MANAGER_PERMISSIONS = String((1n << 4n) | (1n << 10n) | (1n << 11n));
export const MEMBER_PERMISSIONS = String((1n << 10n) | (1n << 11n));

let interactionSeq = 300000000000000000n;

/** A raw chat-input interaction as Discord sends it over the gateway or HTTP. */
export function commandInteraction(
  subcommand: string,
  options: { name: string; type: number; value: string | number | boolean; focused?: boolean }[] = [],
  extra: { type?: number; permissions?: string } = {},
): Record<string, unknown> {
  interactionSeq += 1n;
  return {
    id: interactionSeq.toString(),
    application_id: APP_ID,
    type: extra.type ?? 2,
    token: `token-${interactionSeq}`,
    guild_id: GUILD_ID,
    channel_id: CHANNEL_ID,
    channel: { id: CHANNEL_ID, type: 0 },
    member: {
      user: { id: '100000000000000010', username: 'alice', global_name: 'Alice' },
      permissions: extra.permissions ?? MEMBER_PERMISSIONS,
    },
    data: {
      id: '100000000000000011',
      name: 'directory',
      type: 1,
      options: [{ name: subcommand, type: 1, options }],
    },
    app_permissions: MEMBER_PERMISSIONS,
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': GUILD_ID },
    context: 0,
    attachment_size_limit: 10485760,
    version: 1,
  };
}
