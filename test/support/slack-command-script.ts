import type { CommandDefinition, Message } from '../../src/ports/index.js';
import type { CommandScript } from './fake-command-handler.js';

const DEFINITIONS: CommandDefinition[] = [
  {
    name: 'post',
    description: 'Show a post',
    usage: '/directory post <id>',
    examples: [],
    options: [],
    managesChannel: false,
  },
  {
    name: 'slow',
    description: 'A slow lookup',
    usage: '/directory slow',
    examples: [],
    options: [],
    managesChannel: false,
  },
  {
    name: 'bad',
    description: 'Always fails',
    usage: '/directory bad',
    examples: [],
    options: [],
    managesChannel: false,
  },
  {
    name: 'subscribe',
    description: 'Subscribe this channel',
    usage: '/directory subscribe <feed>',
    examples: [],
    options: [],
    managesChannel: true,
  },
];

export const POST_RESULT: Message = {
  kind: 'post',
  title: 'Post one <!here>',
  url: 'https://directory.example/posts/1',
  text: 'A tagline',
  fallback: 'Post one',
};

/**
 * The Slack suites' stand-in for the core (see FakeCommandHandler): `post 1` finds one post,
 * `slow` answers once released, `bad` fails with usage, and `subscribe` (a channel-managing
 * command) echoes whether the actor may manage the channel.
 */
export const slackScript: CommandScript = {
  definitions: DEFINITIONS,
  answer(invocation, name) {
    switch (name) {
      case 'post':
        return { visibility: 'ephemeral', text: 'Found 1 post', messages: [POST_RESULT], shareable: true };
      case 'slow':
        return { visibility: 'ephemeral', text: 'Slow answer', messages: [POST_RESULT], shareable: true };
      case 'subscribe':
        return {
          visibility: 'in_channel',
          text: `canManageChannel=${invocation.actor.canManageChannel}`,
          messages: [],
          shareable: false,
        };
      default:
        return {
          visibility: 'ephemeral',
          text: `Unknown command ${invocation.text}`,
          messages: [],
          shareable: false,
          error: { code: 'command_usage', usage: '/directory post <id>' },
        };
    }
  },
};
