import { createDiscordAdapter, type DiscordRestEvent } from '../../adapters/discord/index.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { createCapturingLogger } from './capturing-logger.js';
import { APP_ID } from './discord-interactions.js';

/** The bot token the delivery tests give the fake Discord REST API and the adapter. */
export const DELIVERY_TOKEN = 'fake-bot-token';

/** The real Discord adapter posting to a fake REST API at `apiUrl`, gateway off. */
export function deliveryAdapter(apiUrl: string, onEvent: (event: DiscordRestEvent) => void): ChatAdapter {
  return createDiscordAdapter({
    token: DELIVERY_TOKEN,
    applicationId: APP_ID,
    apiUrl,
    gateway: false,
    logger: createCapturingLogger(),
    onEvent,
  });
}
