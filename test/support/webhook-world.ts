import { afterAll, afterEach, expect } from 'vitest';
import { DISCORD_WEBHOOK } from '../../adapters/discord/webhook.js';
import { SLACK_WEBHOOK } from '../../adapters/slack/webhook.js';
import {
  createWebhookAdapter,
  JSON_WEBHOOK,
  MATTERMOST_WEBHOOK,
  TEAMS_WEBHOOK,
} from '../../adapters/webhooks/index.js';
import type {
  ChatAdapter,
  Destination,
  Logger,
  Message,
  WebhookDirectory,
  WebhookEndpoint,
  WebhookKind,
} from '../../src/ports/index.js';
import { FakeDiscordWebhooks } from '../fakes/webhooks/fake-discord-webhooks.js';
import { FakeJsonReceiver } from '../fakes/webhooks/fake-json-receiver.js';
import { FakeMattermost } from '../fakes/webhooks/fake-mattermost.js';
import { FakeSlackWebhooks } from '../fakes/webhooks/fake-slack-webhooks.js';
import { FakeTeamsWorkflows } from '../fakes/webhooks/fake-teams-workflows.js';
import type { FakeWebhookServer } from '../fakes/webhooks/webhook-server.js';
import { createCapturingLogger } from './capturing-logger.js';

/** The signing secret of every test JSON webhook. */
export const JSON_SECRET = 'test-signing-secret-0123456789abcdef0123456789abcdef';

/** Webhooks by name, as the registry would hand them to adapters. */
export class WebhookBook implements WebhookDirectory {
  readonly #endpoints = new Map<string, WebhookEndpoint & { platform: string }>();

  add(platform: string, endpoint: WebhookEndpoint): void {
    this.#endpoints.set(endpoint.name, { ...endpoint, platform });
  }

  async endpoint(platform: string, name: string): Promise<WebhookEndpoint | undefined> {
    const found = this.#endpoints.get(name);
    return found?.platform === platform ? found : undefined;
  }
}

/** One webhook kind on its fake platform: how to make a webhook there and lose it again. */
export interface WebhookFixture<F extends FakeWebhookServer = FakeWebhookServer> {
  kind: WebhookKind;
  fake: F;
  /** Makes a webhook on the fake; its URL (and the JSON kind's secret). */
  create(): { url: string; secret?: string; lose(): void };
}

/** Starts the fake of every kind (closed by the caller). */
export async function startWebhookFakes() {
  const discord = await new FakeDiscordWebhooks().listen();
  const slack = await new FakeSlackWebhooks().listen();
  const teams = await new FakeTeamsWorkflows().listen();
  const mattermost = await new FakeMattermost().listen();
  const json = await new FakeJsonReceiver(JSON_SECRET).listen();
  let receivers = 0;
  const fixtures = {
    discord: {
      kind: DISCORD_WEBHOOK,
      fake: discord,
      create: () => {
        const webhook = discord.addWebhook();
        return { url: webhook.url, lose: () => discord.deleteWebhook(webhook.id) };
      },
    } satisfies WebhookFixture<FakeDiscordWebhooks>,
    slack: {
      kind: SLACK_WEBHOOK,
      fake: slack,
      create: () => {
        const webhook = slack.addWebhook();
        return { url: webhook.url, lose: () => slack.removeWebhook(webhook.path) };
      },
    } satisfies WebhookFixture<FakeSlackWebhooks>,
    teams: {
      kind: TEAMS_WEBHOOK,
      fake: teams,
      create: () => {
        const webhook = teams.addWebhook();
        return { url: webhook.url, lose: () => teams.turnOff(webhook.id) };
      },
    } satisfies WebhookFixture<FakeTeamsWorkflows>,
    mattermost: {
      kind: MATTERMOST_WEBHOOK,
      fake: mattermost,
      create: () => {
        const webhook = mattermost.addWebhook();
        return { url: webhook.url, lose: () => mattermost.deleteWebhook(webhook.id) };
      },
    } satisfies WebhookFixture<FakeMattermost>,
    json: {
      kind: JSON_WEBHOOK,
      fake: json,
      create: () => {
        receivers += 1;
        // One receiver: a lost webhook is one that answers 410 from now on.
        return {
          url: json.hookUrl,
          secret: JSON_SECRET,
          lose: () => json.failNext(...Array.from({ length: 5 }, () => ({ status: 410, body: 'gone' }))),
        };
      },
    } satisfies WebhookFixture<FakeJsonReceiver>,
  };
  return {
    ...fixtures,
    all: [
      fixtures.discord,
      fixtures.slack,
      fixtures.teams,
      fixtures.mattermost,
      fixtures.json,
    ] as WebhookFixture[],
    receivers: () => receivers,
    async close() {
      for (const fake of [discord, slack, teams, mattermost, json]) await fake.close();
    },
  };
}

/** The real adapter of `kind`, finding its webhooks in `book`. */
export function webhookAdapter(
  kind: WebhookKind,
  book: WebhookDirectory,
  logger: Logger = createCapturingLogger(),
): ChatAdapter {
  return createWebhookAdapter(kind, {
    webhooks: book,
    logger,
    userAgent: 'directory-bot-test',
    timeoutMs: 5_000,
  });
}

/**
 * One test file's webhooks of `kind` on `fake` (listening): each call adds a webhook there and the
 * real adapter posting to it. After each test the adapters stop and the fake must have seen
 * nothing break the platform's schema or limits; after the file the fake closes.
 */
export function webhooksOn<Webhook extends { url: string }, Options>(
  fake: FakeWebhookServer & { addWebhook(options?: Options): Webhook },
  kind: WebhookKind,
) {
  afterAll(() => fake.close());
  const adapters: ChatAdapter[] = [];
  afterEach(async () => {
    for (const adapter of adapters.splice(0)) await adapter.stop();
    expect(fake.problems).toEqual([]);
  });
  let count = 0;
  return (options?: Options) => {
    count += 1;
    const name = `${kind.kind}-${count}`;
    const webhook = fake.addWebhook(options);
    const book = new WebhookBook();
    book.add(kind.platform, { name, url: webhook.url });
    const adapter = webhookAdapter(kind, book);
    adapters.push(adapter);
    const destination: Destination = { platform: kind.platform, channelId: name };
    const post = (message: Message, to = destination) =>
      adapter.deliver(to, message, { idempotencyKey: `${name}|${count}` });
    return { webhook, adapter, destination, post };
  };
}
