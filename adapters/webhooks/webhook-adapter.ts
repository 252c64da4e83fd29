import type {
  AdapterHealth,
  ChatAdapter,
  DeliveryOutcome,
  Destination,
  KindContext,
  Logger,
  Message,
  WebhookDirectory,
  WebhookEndpoint,
  WebhookKind,
} from '../../src/ports/index.js';
import { messageOf } from '../../src/ports/index.js';
import { WebhookHttp, type WebhookHttpOptions } from './webhook-http.js';

export interface WebhookAdapterOptions {
  /** Where the URL behind each webhook name is found (the core keeps them: see src/webhooks). */
  webhooks: WebhookDirectory;
  logger: Logger;
  userAgent: string;
  /** Until an answer arrives (default 10 s). */
  timeoutMs?: number;
  /** The connection pool (tests, benchmarks); default one of the adapter's own. */
  dispatcher?: WebhookHttpOptions['dispatcher'];
}

/**
 * The message without command buttons: a click on one comes back to the bot as a command, and
 * nothing comes back from a webhook's channel. Link buttons stay, for the kinds that show them.
 */
function withoutCommandButtons(message: Message): Message {
  if (message.actions === undefined) return message;
  const links = message.actions.filter((action) => action.kind === 'link');
  const { actions: _actions, ...rest } = message;
  return links.length === 0 ? rest : { ...rest, actions: links };
}

/**
 * A webhook kind as a ChatAdapter: the outbox paces, retries and records its deliveries exactly
 * as a channel's, and a worker process delivers through it the same way (it holds nothing but a
 * connection pool). Each delivery looks its webhook's URL up by the destination's name, so a
 * webhook added with `directory-bot webhook add` while the bot runs is found at its first message.
 * Logs name the webhook, never its URL.
 */
export function createWebhookAdapter(kind: WebhookKind, options: WebhookAdapterOptions): ChatAdapter {
  const logger = options.logger.child({ adapter: kind.platform });
  const http = new WebhookHttp({
    userAgent: options.userAgent,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
  });
  const context: KindContext = { http, logger, learned: new Set() };
  let state: 'new' | 'started' | 'stopped' = 'new';

  /** The webhook behind `destination`, or the outcome saying why there is none. */
  async function endpointOf(destination: Destination): Promise<WebhookEndpoint | DeliveryOutcome> {
    try {
      const endpoint = await options.webhooks.endpoint(kind.platform, destination.channelId);
      if (endpoint !== undefined) return endpoint;
      return {
        status: 'rejected',
        code: 'unknown_webhook',
        reason: `no ${kind.title} named "${destination.channelId}" is configured (set its URL variable or run directory-bot webhook add)`,
        scope: 'destination',
      };
    } catch (error) {
      // The store holding stored webhooks did not answer: try again later.
      return { status: 'failed', code: 'webhook_lookup', reason: messageOf(error) };
    }
  }

  function settled(destination: Destination, outcome: DeliveryOutcome): DeliveryOutcome {
    if (outcome.status !== 'delivered') {
      logger.warn(
        {
          webhook: destination.channelId,
          status: outcome.status,
          code: outcome.code,
          reason: outcome.reason,
        },
        `${kind.title} delivery did not go through`,
      );
    }
    return outcome;
  }

  const adapter: ChatAdapter = {
    platform: kind.platform,
    pacing: kind.pacing,
    ...(kind.mentions === undefined ? {} : { mentions: kind.mentions }),
    ...(kind.wantsRecords ? { wantsRecords: true } : {}),

    async start() {
      // Nothing to connect: a webhook is reached when there is something to post.
      if (state === 'new') state = 'started';
    },

    async deliver(destination, message, delivery) {
      const endpoint = await endpointOf(destination);
      if ('status' in endpoint) return settled(destination, endpoint);
      const outcome = await kind.post(
        endpoint,
        destination,
        withoutCommandButtons(message),
        delivery,
        context,
      );
      return settled(destination, outcome);
    },

    health(): AdapterHealth {
      if (state === 'stopped') return { ready: false, reason: `${kind.platform} adapter stopped` };
      if (state === 'new') return { ready: false, reason: `${kind.platform} adapter not started` };
      return { ready: true };
    },

    async stop() {
      state = 'stopped';
      await http.close();
    },
  };
  const { edit, remove } = kind;
  if (kind.edits && edit !== undefined) {
    adapter.edit = async (destination, reference, message, item) => {
      const endpoint = await endpointOf(destination);
      if ('status' in endpoint) return settled(destination, endpoint);
      const plain = withoutCommandButtons(message);
      return settled(destination, await edit(endpoint, destination, reference, plain, item, context));
    };
  }
  if (kind.edits && remove !== undefined) {
    adapter.delete = async (destination, reference) => {
      const endpoint = await endpointOf(destination);
      if ('status' in endpoint) return settled(destination, endpoint);
      return settled(destination, await remove(endpoint, destination, reference, context));
    };
  }
  return adapter;
}
