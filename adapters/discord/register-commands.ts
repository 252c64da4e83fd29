import { REST, Routes } from 'discord.js';
import { BotError, type CommandDefinition } from '../../src/ports/index.js';
import { type BuildCommandsOptions, buildDiscordCommands } from './build-commands.js';

export interface RegisterCommandsOptions extends BuildCommandsOptions {
  token: string;
  applicationId: string;
  apiUrl?: string;
  /** Register for one guild (instant; for development) instead of globally. */
  guildId?: string;
  definitions: readonly CommandDefinition[];
}

/**
 * Bulk-overwrites the application's commands (`PUT …/commands`, or the guild route when
 * `guildId` is given) with the ones built from the core's definitions. Overwriting is
 * idempotent, so a release step can run it on every deploy.
 */
export async function registerDiscordCommands(
  options: RegisterCommandsOptions,
): Promise<{ scope: 'guild' | 'global'; count: number }> {
  const buildOptions: BuildCommandsOptions = {};
  if (options.restrictedCommandName !== undefined)
    buildOptions.restrictedCommandName = options.restrictedCommandName;
  const body = buildDiscordCommands(options.definitions, buildOptions);
  const rest = new REST(
    options.apiUrl === undefined ? { version: '10' } : { version: '10', api: options.apiUrl },
  );
  rest.setToken(options.token);
  const route = options.guildId
    ? Routes.applicationGuildCommands(options.applicationId, options.guildId)
    : Routes.applicationCommands(options.applicationId);
  try {
    const saved = await rest.put(route, { body });
    return { scope: options.guildId ? 'guild' : 'global', count: Array.isArray(saved) ? saved.length : 0 };
  } catch (error) {
    throw new BotError('platform_error', 'registering Discord commands failed', {
      cause: error,
      method: 'PUT',
      url: route,
    });
  } finally {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  }
}
