import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { discordKeyPair, signedInteractionHeaders } from '../fakes/discord/signing.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../fakes/slack/slash-command.js';
import { APP_ID, commandInteraction } from './discord-interactions.js';

export const SLACK_TOKEN = 'xoxb-start-up-test-token';
export const SLACK_SECRET = 'start-up-signing-secret';
export const DISCORD_TOKEN = 'discord-start-up-test-token';

/**
 * A directory emulator, a fake Slack and a fake Discord (REST only: the bot runs with HTTP
 * interactions) for a bot started as a real child process, with the environment that points the
 * bot at them and requests signed as each platform signs them.
 */
export interface LivePlatforms {
  slack: FakeSlackApi;
  discord: FakeDiscordRest;
  emulator: RunningEmulator;
  /** The bot's environment: everything configured, store in `storeFile`, PORT left to the caller. */
  env(storeFile: string): Record<string, string>;
  /** POSTs a signed `/directory <text>` slash command as user `userId`. */
  slashCommand(baseUrl: string, text: string, userId: string): Promise<Response>;
  /** POSTs a signed `/directory <subcommand>` Discord interaction as user `userId`. */
  discordInteraction(baseUrl: string, subcommand: string, userId: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startLivePlatforms(): Promise<LivePlatforms> {
  const slack = await new FakeSlackApi().start();
  slack.addToken(SLACK_TOKEN, 'T1');
  const discord = new FakeDiscordRest({ token: DISCORD_TOKEN });
  await discord.listen();
  const emulator = await startEmulator({ port: 0 });
  const keys = discordKeyPair();

  return {
    slack,
    discord,
    emulator,
    env: (storeFile) => ({
      STORE_URL: `sqlite://${storeFile}`,
      DIRECTORY_BASE_URL: emulator.url,
      DIRECTORY_TOKEN: 'dev-token',
      SLACK_BOT_TOKEN: SLACK_TOKEN,
      SLACK_SIGNING_SECRET: SLACK_SECRET,
      SLACK_API_URL: slack.apiUrl,
      DISCORD_TOKEN,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_PUBLIC_KEY: keys.publicHex,
      DISCORD_API_URL: discord.url,
      DISCORD_GATEWAY: 'false',
    }),
    slashCommand(baseUrl, text, userId) {
      return postSlashCommand(baseUrl, SLACK_SECRET, {
        text,
        userId,
        userName: userId.toLowerCase(),
        responseUrl: slack.responseUrl(),
      });
    },
    discordInteraction(baseUrl, subcommand, userId) {
      const interaction = commandInteraction(subcommand);
      (interaction['member'] as { user: { id: string } }).user.id = userId;
      const raw = JSON.stringify(interaction);
      return fetch(`${baseUrl}/discord/interactions`, {
        method: 'POST',
        headers: signedInteractionHeaders(keys.privateKey, raw),
        body: raw,
      });
    },
    async close() {
      await slack.close();
      await discord.close();
      await emulator.close();
    },
  };
}

/** True when `error` is fetch's "nobody is listening on that port". */
export function isConnectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return cause?.code === 'ECONNREFUSED';
}
