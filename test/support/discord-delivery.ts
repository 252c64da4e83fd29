import { afterEach, beforeEach } from 'vitest';
import {
  createDiscordAdapter,
  type DiscordAdapterOptions,
  type DiscordRestEvent,
} from '../../adapters/discord/index.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { createCapturingLogger } from './capturing-logger.js';
import { APP_ID } from './discord-interactions.js';

/** The bot token the delivery tests give the fake Discord REST API and the adapter. */
export const DELIVERY_TOKEN = 'fake-bot-token';

/** The real Discord adapter posting to a fake REST API at `apiUrl`, gateway off; `extra` options on top. */
export function deliveryAdapter(
  apiUrl: string,
  onEvent: (event: DiscordRestEvent) => void,
  extra: Partial<DiscordAdapterOptions> = {},
): ChatAdapter {
  return createDiscordAdapter({
    token: DELIVERY_TOKEN,
    applicationId: APP_ID,
    apiUrl,
    gateway: false,
    logger: createCapturingLogger(),
    onEvent,
    ...extra,
  });
}

/**
 * For a `describe`: before each test a fresh fake Discord REST API with `channels` (forums in
 * `forums`) and the real adapter posting to it (`adapter` options on top); both stopped after.
 */
export function freshDelivery(setup: {
  channels: string[];
  forums?: string[];
  adapter?: Partial<DiscordAdapterOptions>;
}): { rest: FakeDiscordRest; adapter: ChatAdapter } {
  const fixture = {} as { rest: FakeDiscordRest; adapter: ChatAdapter };
  beforeEach(async () => {
    fixture.rest = new FakeDiscordRest({ token: DELIVERY_TOKEN });
    await fixture.rest.listen();
    for (const id of [...setup.channels, ...(setup.forums ?? [])]) fixture.rest.addChannel(id);
    for (const id of setup.forums ?? []) fixture.rest.threads.forums.add(id);
    fixture.adapter = deliveryAdapter(fixture.rest.url, () => {}, setup.adapter);
  });
  afterEach(async () => {
    await fixture.adapter.stop();
    await fixture.rest.close();
  });
  return fixture;
}
