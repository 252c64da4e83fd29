import type { Config } from '../config/config.js';
import { BotError, messageOf } from '../errors.js';
import type { CommandHandler, Logger } from '../ports/index.js';
import { type DeliveryOutcome, systemClock } from '../ports/index.js';
import { type BotStore, createSecretSealer, createStore } from '../store/index.js';
import {
  parseRoute,
  type Subscription,
  SubscriptionRepository,
  WEBHOOK_NAME,
} from '../subscriptions/index.js';
import { WebhookRegistry, type WebhookSummary } from '../webhooks/index.js';
import { createWebhookAdapters, identifyWebhook, WEBHOOK_KINDS } from './platforms.js';
import { storeNamespace } from './sandbox.js';
import { configuredWebhooks, seedProblem } from './webhook-setup.js';

/** A webhook as `webhook list` shows it: never its URL. */
export interface WebhookListing extends WebhookSummary {
  subscriptions: Subscription[];
}

/**
 * What `directory-bot webhook` (and the control panel, where it exists) does to the bot's
 * webhooks: over the configured store, with the environment's webhooks read from the
 * configuration and stored ones sealed under STORE_ENCRYPTION_KEY.
 */
export interface WebhookAdmin {
  list(): Promise<WebhookListing[]>;
  /**
   * Stores a webhook (its kind recognised from the URL) and adds its routes (`<feed>[?options]`,
   * the grammar of a SUBSCRIPTIONS entry after `=`). Without a URL, adds routes to a webhook
   * already known. Problems are BotErrors: `command_usage` for the words given,
   * `config_invalid` naming STORE_ENCRYPTION_KEY when nothing may be stored.
   */
  add(input: { name: string; url?: string; secret?: string; routes: string[]; by: string }): Promise<{
    webhook: WebhookSummary;
    stored: boolean;
    subscriptions: Subscription[];
  }>;
  /** Posts a test message through the webhook's own adapter, as a delivery would. */
  test(name: string): Promise<DeliveryOutcome>;
  /** Forgets a stored webhook and every subscription of it; the environment's are refused. */
  remove(name: string): Promise<{ webhook: WebhookSummary; subscriptions: Subscription[] }>;
  close(): Promise<void>;
}

/** The command handler of an adapter that is only posted through (a test post). */
const NO_COMMANDS: CommandHandler = {
  definitions: () => [],
  handle: async () => ({ visibility: 'ephemeral', text: '', messages: [], shareable: false }),
};

/** Opens the configured store for webhook administration; `close` when done. */
export function openWebhookAdmin(config: Config, logger: Logger, store?: BotStore): WebhookAdmin {
  const opened = store ?? createStore({ url: config.store.url, ...storeNamespace(config) });
  const sealer =
    config.store.encryption === undefined ? undefined : createSecretSealer(config.store.encryption);
  const registry = new WebhookRegistry({
    keyv: opened.keyv,
    leases: opened.leases,
    clock: systemClock,
    sealer,
    configured: configuredWebhooks(config),
  });
  const subscriptions = new SubscriptionRepository({
    keyv: opened.keyv,
    leases: opened.leases,
    clock: systemClock,
  });

  const known = async (name: string): Promise<WebhookSummary> => {
    const webhook = await registry.find(name);
    if (webhook === undefined) {
      throw new BotError('command_usage', `there is no webhook named "${name}" (directory-bot webhook list)`);
    }
    return webhook;
  };

  return {
    async list() {
      const all = await subscriptions.list();
      return (await registry.list()).map((webhook) => ({
        ...webhook,
        subscriptions: all.filter((s) => s.platform === webhook.platform && s.channelId === webhook.name),
      }));
    },

    async add(input) {
      if (!WEBHOOK_NAME.test(input.name)) {
        throw new BotError(
          'command_usage',
          `"${input.name}" is not a webhook name: lower-case letters, digits and single dashes, at most 32`,
        );
      }
      // Everything is checked before anything is written: a route that cannot work stores nothing.
      const identified =
        input.url === undefined ? undefined : identifyWebhook(input.url, input.secret !== undefined);
      if (identified !== undefined && 'problem' in identified) {
        throw new BotError('command_usage', `the URL: ${identified.problem}`);
      }
      const existing = identified === undefined ? await known(input.name) : undefined;
      const platform = identified?.kind.platform ?? existing?.platform ?? '';
      const kind = WEBHOOK_KINDS.find((k) => k.platform === platform);
      const seeds = input.routes.map((route) => {
        const [feed = '', query] = route.split(/\?(.*)/s, 2);
        const seed = parseRoute(platform, input.name, feed, query);
        if (typeof seed === 'string') throw new BotError('command_usage', `"${route}": ${seed}`);
        const problem = seedProblem(seed, platform, kind, kind?.mentions);
        if (problem !== undefined) throw new BotError('command_usage', `"${route}": ${problem}`);
        return seed;
      });
      let stored = false;
      if (identified !== undefined && input.url !== undefined) {
        stored = await registry.add({
          name: input.name,
          kind: identified.kind.kind,
          platform: identified.kind.platform,
          url: input.url,
          ...(input.secret === undefined ? {} : { secret: input.secret }),
          shown: identified.shown,
          ...(identified.workspaceId === undefined ? {} : { workspaceId: identified.workspaceId }),
          addedBy: input.by,
        });
      }
      const webhook = await known(input.name);
      const added: Subscription[] = [];
      for (const seed of seeds) {
        // A stored webhook's route is added now: its backfill is asked for as a subscribe's is.
        const {
          platform: _platform,
          channelId: _channelId,
          workspaceId: _workspaceId,
          backfill: _backfill,
          ...rest
        } = seed;
        const result = await subscriptions.add({
          ...rest,
          platform: webhook.platform,
          channelId: webhook.name,
          ...(webhook.workspaceId === undefined ? {} : { workspaceId: webhook.workspaceId }),
          createdBy: input.by,
        });
        added.push(result.subscription);
      }
      return { webhook, stored, subscriptions: added };
    },

    async test(name) {
      const webhook = await known(name);
      const adapter = createWebhookAdapters(registry, logger).find((a) => a.platform === webhook.platform);
      if (adapter === undefined) throw new BotError('internal', `no adapter for ${webhook.platform}`);
      // A webhook takes no commands and mounts no routes: the context is only what start() needs.
      await adapter.start({ http: { mount: () => {} }, commands: NO_COMMANDS, logger });
      try {
        const at = new Date(systemClock.now()).toISOString();
        return await adapter.deliver(
          { platform: webhook.platform, channelId: webhook.name },
          {
            kind: 'info',
            title: 'Directory Bot test message',
            text: `This ${webhook.kind} webhook ("${webhook.name}") is set up: feed messages will appear here.`,
            footer: 'Directory Bot · directory-bot webhook test',
            timestamp: at,
            fallback: 'Directory Bot test message',
          },
          { idempotencyKey: `${webhook.platform}:${webhook.name}|test:${at}`, item: { key: `test:${at}` } },
        );
      } catch (error) {
        return { status: 'failed', code: 'adapter_threw', reason: messageOf(error) };
      } finally {
        await adapter.stop();
      }
    },

    async remove(name) {
      const webhook = await known(name);
      if (webhook.source !== 'store') {
        throw new BotError(
          'command_usage',
          `"${name}" is configured by ${webhook.source}: unset it (and its SUBSCRIPTIONS entries) instead`,
        );
      }
      await registry.remove(name);
      const removed = await subscriptions.removeDestination(webhook.platform, webhook.name);
      return { webhook, subscriptions: removed };
    },

    async close() {
      if (store === undefined) await opened.close();
    },
  };
}
