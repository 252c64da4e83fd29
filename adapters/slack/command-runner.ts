import type { webApi } from '@slack/bolt';
import type {
  Actor,
  CommandHandler,
  CommandInvocation,
  CommandReply,
  Logger,
} from '../../src/ports/index.js';
import type { AdminLookup } from './admin-lookup.js';

export interface CommandRunnerDeps {
  commands: CommandHandler;
  admin: AdminLookup;
  logger: Logger;
}

const FAILED: CommandReply = {
  visibility: 'ephemeral',
  text: 'Something went wrong while answering. Please try again in a minute.',
  messages: [],
  shareable: false,
  error: { code: 'internal' },
};

function firstWord(text: string): string {
  return text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
}

/** Who is asking and what the core answers, shared by the slash command and every button. */
export interface CommandRunner {
  /** The command text names a command that changes channel state. */
  managesChannel(text: string): boolean;
  /** The actor as Slack says: users.info only for commands that change channel state. */
  actorFor(
    client: webApi.WebClient,
    teamId: string | undefined,
    userId: string,
    userName: string | undefined,
    text: string,
  ): Promise<Actor>;
  /** The core's reply; a handler that throws is logged and answered with an apology. */
  run(invocation: CommandInvocation): Promise<CommandReply>;
}

export function createCommandRunner(deps: CommandRunnerDeps): CommandRunner {
  const { commands, logger } = deps;

  function managesChannel(text: string): boolean {
    const name = firstWord(text);
    return commands.definitions().some((definition) => definition.name === name && definition.managesChannel);
  }

  return {
    managesChannel,
    async actorFor(client, teamId, userId, userName, text) {
      // Lookups need no extra Slack call.
      const canManageChannel = managesChannel(text)
        ? await deps.admin.isAdminOrOwner(client, teamId, userId)
        : false;
      return { userId, canManageChannel, ...(userName === undefined ? {} : { displayName: userName }) };
    },
    async run(invocation) {
      try {
        return await commands.handle(invocation);
      } catch (error) {
        logger.error({ err: error, text: invocation.text }, 'the command handler threw');
        return FAILED;
      }
    },
  };
}
