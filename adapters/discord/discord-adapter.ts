import { Client, GatewayDispatchEvents, GatewayIntentBits, type REST } from 'discord.js';
import type {
  AdapterContext,
  AdapterHealth,
  ChatAdapter,
  DeliveryOptions,
  DeliveryOutcome,
  DeliveryPacing,
  Destination,
  Logger,
  Message,
} from '../../src/ports/index.js';
import { BotError } from '../../src/ports/index.js';
import { deliverMessage } from './deliver.js';
import { createDiscordDirectMessages } from './direct-message.js';
import { deleteMessage, editMessage } from './edit-message.js';
import { postInForum } from './forum.js';
import { discordRemovalCheck, removedGuildOf, watchGuildRemoval } from './guild-removal.js';
import { createHttpInteractionsHandler } from './http-interactions.js';
import { createInteractionFlow } from './interaction-flow.js';
import { interactionSchema } from './interaction-payload.js';
import { createResponder } from './interaction-responder.js';
import { DISCORD_MENTIONS } from './mentions.js';
import { createChannelServers, discordMessageLink } from './message-link.js';
import { createDiscordRest, type DiscordRestEvent } from './rest-client.js';
import { rememberThreadRefusals } from './thread-refusals.js';
import { openThread, postInThread } from './threads.js';
import { importDiscordPublicKey } from './verify-signature.js';
import { verifyDiscordToken } from './verify-token.js';
import { createDiscordWorkspaceAccess } from './workspace-access.js';

export interface DiscordAdapterOptions {
  /** Bot token: needed to deliver and for the gateway. */
  token?: string;
  applicationId: string;
  /** When set, serve `POST /discord/interactions` (Ed25519-verified) on the bot's HTTP server. */
  publicKey?: string;
  /** discord.js REST `api` base, e.g. `http://127.0.0.1:PORT/api`. */
  apiUrl?: string;
  /** Receive interactions over the gateway (default: true when a token is set). */
  gateway?: boolean;
  logger: Logger;
  onEvent?: (event: DiscordRestEvent) => void;
  /** Defer an interaction when the core has not answered within this long (default 2000 ms; Discord allows 3 s). */
  deferAfterMs?: number;
  /**
   * Clock in ms for the HTTP interactions replay window and for how long a channel's refusal to
   * start threads is remembered. Default `Date.now`.
   */
  now?: () => number;
  /** Milliseconds before a REST request is given up (default 10 s). */
  requestTimeoutMs?: number;
}

/**
 * Discord's posting limits as the outbox paces them (CONTRACTS.md 2(c)). Per channel, nothing
 * fixed: "rate limits should not be hard coded", so every post reports the bucket Discord stated
 * (`X-RateLimit-Remaining`/`-Reset-After`) and an empty one waits for its reset. Globally, the
 * documented 50 requests per second, never more than 50 in any second Discord counts: a request
 * holds its place from when it is sent until a second after its answer (`WindowLimiter`), so
 * however requests bunch up on the way no second sees 51. A token bucket of 50/s with a burst of
 * 50 would send up to 100 inside one of Discord's one-second windows.
 */
export const DISCORD_PACING: DeliveryPacing = {
  global: { limit: 50, windowMs: 1_000 },
};

const DEFAULT_DEFER_AFTER_MS = 2_000;

/**
 * The Discord chat adapter: posts feed messages through discord.js REST and answers
 * `/directory` interactions received over the gateway, the HTTP endpoint, or both.
 */
export function createDiscordAdapter(options: DiscordAdapterOptions): ChatAdapter {
  const logger = options.logger.child({ adapter: 'discord' });
  const useGateway = options.gateway ?? options.token !== undefined;
  if (useGateway && !options.token) {
    throw new BotError('config_invalid', 'the Discord gateway needs DISCORD_TOKEN');
  }
  const publicKey = options.publicKey === undefined ? undefined : importDiscordPublicKey(options.publicKey);
  const restOptions: Parameters<typeof createDiscordRest>[0] = { logger };
  if (options.token !== undefined) restOptions.token = options.token;
  if (options.apiUrl !== undefined) restOptions.apiUrl = options.apiUrl;
  if (options.onEvent !== undefined) restOptions.onEvent = options.onEvent;
  if (options.requestTimeoutMs !== undefined) restOptions.timeoutMs = options.requestTimeoutMs;
  const rest: REST = createDiscordRest(restOptions);
  // Forum posts carry no nonce: after a timeout one may have been made, so discord.js never
  // repeats them (only the outbox does, asking its ledger first). Messages (feed posts, replies,
  // DMs) carry a nonce Discord enforces, so discord.js's one retry gets the same message back;
  // they stay on `rest`, whose count of the global 50 a second then also covers the adapter's
  // own calls the outbox does not pace (token check, guild lookups): with a client of their own,
  // a burst's first second drew a global 429 (the quick fan-out benchmark, every run).
  const forumPosts: REST = createDiscordRest({ ...restOptions, retries: 0 });
  /** Channels known to be forums: their items go straight to a forum post. */
  const forums = new Set<string>();
  const startThread = rememberThreadRefusals(
    (destination, parentMessageId, name) => openThread(rest, destination, parentMessageId, name),
    options.now ?? Date.now,
  );

  let client: Client | undefined;
  const servers = createChannelServers((channelId) => {
    const channel = client?.channels.cache.get(channelId);
    return channel !== undefined && 'guildId' in channel ? (channel.guildId ?? undefined) : undefined;
  });
  let started = false;
  let stopping = false;
  /** Set while Discord refuses the bot token: bot-wide, so readiness says so, not a channel. */
  let tokenRefused: string | undefined;

  async function connectGateway(context: AdapterContext, flow: ReturnType<typeof createInteractionFlow>) {
    // Guilds is the only intent a slash-command bot needs; no privileged intents.
    const gatewayClient = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: options.apiUrl === undefined ? {} : { api: options.apiUrl },
    });
    client = gatewayClient;
    // Raw dispatch: the same payload shape as the HTTP endpoint, so one parser and one flow serve both.
    gatewayClient.ws.on(GatewayDispatchEvents.InteractionCreate, (data: unknown) => {
      const parsed = interactionSchema.safeParse(data);
      if (!parsed.success) {
        logger.warn('malformed discord interaction from the gateway ignored');
        return;
      }
      const interaction = parsed.data;
      void flow(
        interaction,
        createResponder(rest, {
          id: interaction.id,
          token: interaction.token,
          applicationId: interaction.application_id,
        }),
      );
    });
    if (context.workspaceRemoved !== undefined) watchGuildRemoval(gatewayClient.ws, context.workspaceRemoved);
    gatewayClient.on('error', (error) => logger.error({ err: error }, 'discord gateway error'));
    const ready = new Promise<void>((resolve) => gatewayClient.once('clientReady', () => resolve()));
    await gatewayClient.login(options.token);
    await ready;
    context.logger.info({ user: gatewayClient.user?.tag }, 'discord gateway ready');
  }

  let flow: ReturnType<typeof createInteractionFlow> | undefined;
  let workspaceRemoved: AdapterContext['workspaceRemoved'];

  /** Mounts the HTTP interactions endpoint: no call to Discord, so it can run before the port is bound. */
  function attach(context: AdapterContext): ReturnType<typeof createInteractionFlow> {
    if (flow !== undefined) return flow;
    workspaceRemoved = context.workspaceRemoved;
    const answer = createInteractionFlow({
      commands: context.commands,
      logger,
      deferAfterMs: options.deferAfterMs ?? DEFAULT_DEFER_AFTER_MS,
    });
    // Every interaction names its channel's server: what a link to a message there needs.
    const created: typeof answer = (interaction, responder) => {
      servers.learn(interaction);
      return answer(interaction, responder);
    };
    flow = created;
    if (publicKey) {
      context.http.mount(
        '/discord/',
        createHttpInteractionsHandler({
          publicKey,
          rest,
          flow: created,
          logger,
          now: options.now ?? Date.now,
        }),
      );
    }
    return created;
  }

  /**
   * discord.js forgets the token after a 401, on whichever client got it; without setting it
   * again on both, every later call on that client fails locally ("Expected token to be set",
   * a network failure) and never learns that the token works again.
   */
  const rearmAfter401 = <T extends { status: string }>(outcome: T): T => {
    if (
      outcome.status === 'failed' &&
      (outcome as { code?: unknown }).code === 'unauthorized' &&
      options.token
    ) {
      rest.setToken(options.token);
      forumPosts.setToken(options.token);
    }
    return outcome;
  };
  const directMessages = createDiscordDirectMessages({ rest, logger });
  return {
    platform: 'discord',
    pacing: DISCORD_PACING,
    mentions: DISCORD_MENTIONS,
    // Replies go in a thread under their message (Slack `thread_ts`, a Discord thread).
    repliesInThreads: true,
    // Without a token nothing is posted, so no channel can be refused.
    ...(options.token === undefined ? {} : { removalCheck: discordRemovalCheck(rest) }),
    ...(options.token === undefined
      ? {}
      : { access: createDiscordWorkspaceAccess({ rest, logger, now: Date.now }) }),

    attach(context: AdapterContext): void {
      attach(context);
    },

    messageLink: (destination, reference) => discordMessageLink(servers.withServer(destination), reference),

    async start(context: AdapterContext): Promise<void> {
      const attachedFlow = attach(context);
      if (options.token !== undefined) await verifyDiscordToken(rest, logger);
      if (useGateway) await connectGateway(context, attachedFlow);
      started = true;
    },

    async deliver(
      destination: Destination,
      message: Message,
      delivery: DeliveryOptions,
    ): Promise<DeliveryOutcome> {
      if (!options.token) {
        return { status: 'failed', code: 'not_configured', reason: 'DISCORD_TOKEN is not set' };
      }
      if (destination.thread !== undefined) {
        // A reply: its refusals concern the thread, and the core falls back to the channel.
        return rearmAfter401(await postInThread(rest, destination, message, delivery.idempotencyKey));
      }
      const forum = (channelId: string, m: Message) => postInForum(forumPosts, channelId, m);
      const outcome = await deliverMessage(
        { rest, logger, forum, forums },
        destination,
        message,
        delivery.idempotencyKey,
      );
      const removedGuild = removedGuildOf(destination, outcome);
      // Not awaited: the removal drops this destination's queue, which the dispatcher is handling.
      if (removedGuild !== undefined)
        void workspaceRemoved?.({ platform: 'discord', id: removedGuild }, 'guild_removed');
      if (outcome.status === 'delivered') tokenRefused = undefined;
      else if (outcome.status === 'failed' && outcome.code === 'unauthorized')
        tokenRefused = 'Discord rejected the bot token (401 Unauthorized)';
      return rearmAfter401(outcome);
    },

    async openThread(destination, parentMessageId, name) {
      if (!options.token) {
        return { status: 'failed', code: 'not_configured', reason: 'DISCORD_TOKEN is not set' };
      }
      return rearmAfter401(await startThread(destination, parentMessageId, name));
    },

    async edit(destination, reference, message): Promise<DeliveryOutcome> {
      if (!options.token) {
        return { status: 'failed', code: 'not_configured', reason: 'DISCORD_TOKEN is not set' };
      }
      return rearmAfter401(await editMessage(rest, destination, reference, message));
    },

    async delete(destination, reference): Promise<DeliveryOutcome> {
      if (!options.token) {
        return { status: 'failed', code: 'not_configured', reason: 'DISCORD_TOKEN is not set' };
      }
      return rearmAfter401(await deleteMessage(rest, destination, reference));
    },

    async deliverDirect(destination, message, delivery): Promise<DeliveryOutcome> {
      if (!options.token) {
        return { status: 'failed', code: 'not_configured', reason: 'DISCORD_TOKEN is not set' };
      }
      return rearmAfter401(await directMessages(destination, message, delivery.idempotencyKey));
    },

    health(): AdapterHealth {
      if (stopping) return { ready: false, reason: 'discord adapter stopped' };
      if (!started) return { ready: false, reason: 'discord adapter not started' };
      if (tokenRefused !== undefined) return { ready: false, reason: tokenRefused };
      if (client && !client.isReady()) return { ready: false, reason: 'discord gateway not connected' };
      return { ready: true };
    },

    async stop(): Promise<void> {
      stopping = true;
      await client?.destroy();
      client = undefined;
      for (const client of [rest, forumPosts]) {
        client.clearHashSweeper();
        client.clearHandlerSweeper();
      }
    },
  };
}
