import type { KeyObject } from 'node:crypto';
import { createDiscordAdapter, type DiscordAdapterOptions } from '../../adapters/discord/index.js';
import type { ChatAdapter, CommandHandler } from '../../src/ports/index.js';
import { postInteraction } from '../fakes/discord/component-interactions.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { discordKeyPair } from '../fakes/discord/signing.js';
import { createCapturingLogger } from './capturing-logger.js';
import { APP_ID } from './discord-interactions.js';
import { type MountServer, startMountServer } from './mount-server.js';

/** The real Discord adapter serving its HTTP interactions endpoint, with the fake REST API behind it. */
export interface DiscordEndpoint {
  rest: FakeDiscordRest;
  server: MountServer;
  adapter: ChatAdapter;
  /** The application's key pair: the adapter holds the public half, `post` signs with the private. */
  keys: { publicHex: string; privateKey: KeyObject };
  /**
   * POSTs an interaction as Discord sends it, signed at `timestamp` (seconds; default the
   * adapter's clock) with `key` (default the application's own).
   */
  post(
    interaction: Record<string, unknown>,
    options?: { timestamp?: string; key?: { privateKey: KeyObject } },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the adapter on a mount server, answering with `commands`; `now` is the adapter's clock
 * for the signature replay window. `adapter` adds or overrides adapter options.
 */
export async function startDiscordEndpoint(
  commands: CommandHandler,
  now: () => number,
  adapter: Partial<DiscordAdapterOptions> = {},
): Promise<DiscordEndpoint> {
  const rest = new FakeDiscordRest();
  await rest.listen();
  const server = await startMountServer();
  const keys = discordKeyPair();
  const running = createDiscordAdapter({
    applicationId: APP_ID,
    publicKey: keys.publicHex,
    apiUrl: rest.url,
    logger: createCapturingLogger(),
    now,
    ...adapter,
  });
  await running.start({ http: server.http, commands, logger: createCapturingLogger() });
  return {
    rest,
    server,
    adapter: running,
    keys,
    post: (interaction, options = {}) =>
      postInteraction(
        server.url,
        (options.key ?? keys).privateKey,
        interaction,
        options.timestamp ?? String(Math.floor(now() / 1000)),
      ),
    close: async () => {
      await running.stop();
      await server.close();
      await rest.close();
    },
  };
}
