import { parseArgs } from 'node:util';
import { CONFIG_ERROR_EXIT_CODE } from '../config/load-config.js';
import { messageOf } from '../errors.js';
import type { CommandDefinition } from '../ports/index.js';
import { loadConfigOrReport } from './cli-config.js';
import { type CliIo, USAGE_EXIT_CODE } from './io.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot discord register [--guild ID] [--if-configured]

Registers the /directory slash command (bulk overwrite) with Discord, using DISCORD_TOKEN,
DISCORD_APPLICATION_ID and DISCORD_API_URL. With --guild the commands are registered in that
server only and appear at once (for development); without it they are global. With
DISCORD_ADMIN_COMMAND set, subscribe and unsubscribe go under that second command, which
only members with Manage Channels see.

  --guild ID         register in one guild (server) instead of globally
  --if-configured    exit 0 quietly when Discord is not configured (for the Procfile release phase)
  --help, -h         show this help`;

export type RegisterFn = (options: {
  token: string;
  applicationId: string;
  apiUrl?: string;
  guildId?: string;
  /** From DISCORD_ADMIN_COMMAND: subscribe/unsubscribe under a second command gated by Manage Channels. */
  restrictedCommandName?: string;
  definitions: readonly CommandDefinition[];
}) => Promise<{ scope: 'guild' | 'global'; count: number }>;

/** `directory-bot discord register`, with the registrar and definitions injected by the caller. */
export function createDiscordRegisterCommand(
  register: RegisterFn,
  definitions: () => readonly CommandDefinition[],
): Subcommand {
  return {
    name: 'discord register',
    summary: 'Register the /directory command with Discord (--guild ID for one server).',
    usage: USAGE,
    async run(argv: string[], io: CliIo) {
      let values: { guild?: string; 'if-configured'?: boolean; help?: boolean };
      try {
        ({ values } = parseArgs({
          args: argv,
          options: {
            guild: { type: 'string' },
            'if-configured': { type: 'boolean' },
            help: { type: 'boolean', short: 'h' },
          },
          strict: true,
        }));
      } catch (error) {
        io.stderr(messageOf(error));
        io.stderr(USAGE);
        return USAGE_EXIT_CODE;
      }
      if (values.help) {
        io.stdout(USAGE);
        return 0;
      }
      if (values.guild !== undefined && !/^\d{17,20}$/.test(values.guild)) {
        io.stderr(`--guild expects a Discord server id (17 to 20 digits), got "${values.guild}"`);
        return USAGE_EXIT_CODE;
      }
      const config = loadConfigOrReport(io, 'directory-bot discord register');
      if (typeof config === 'number') return config;
      if (!config.discord?.token) {
        if (values['if-configured']) {
          io.stdout('Discord is not configured (DISCORD_TOKEN unset); nothing to register.');
          return 0;
        }
        io.stderr('Set DISCORD_TOKEN and DISCORD_APPLICATION_ID to register commands.');
        return CONFIG_ERROR_EXIT_CODE;
      }
      try {
        const result = await register({
          token: config.discord.token,
          applicationId: config.discord.applicationId,
          apiUrl: config.discord.apiUrl,
          ...(values.guild ? { guildId: values.guild } : {}),
          ...(config.discord.restrictedCommandName === undefined
            ? {}
            : { restrictedCommandName: config.discord.restrictedCommandName }),
          definitions: definitions(),
        });
        io.stdout(
          result.scope === 'guild'
            ? `Registered ${result.count} command(s) in guild ${values.guild}; they are available now.`
            : `Registered ${result.count} global command(s); Discord may take up to an hour to show changes everywhere.`,
        );
        return 0;
      } catch (error) {
        io.stderr(`Registration failed: ${messageOf(error)}`);
        return 1;
      }
    },
  };
}
