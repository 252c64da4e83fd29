import type {
  CommandDefinition,
  CommandHandler,
  CommandInvocation,
  CommandReply,
  Message,
} from '../../../src/ports/index.js';

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
 * A small, real implementation of the core's CommandHandler port for adapter tests: `post 1`
 * finds one post, `slow` waits until the test releases it, `bad` fails with usage, and
 * `subscribe` (a channel-managing command) echoes whether the actor may manage the channel.
 */
export class FakeCommandHandler implements CommandHandler {
  readonly invocations: CommandInvocation[] = [];
  private release: (() => void) | undefined;
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  /** Lets a pending `slow` command answer. */
  releaseSlow(): void {
    this.release?.();
  }

  definitions(): readonly CommandDefinition[] {
    return DEFINITIONS;
  }

  async handle(invocation: CommandInvocation): Promise<CommandReply> {
    this.invocations.push(invocation);
    const [name] = invocation.text.split(/\s+/);
    switch (name) {
      case 'post':
        return { visibility: 'ephemeral', text: 'Found 1 post', messages: [POST_RESULT], shareable: true };
      case 'slow':
        await this.gate;
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
  }
}
