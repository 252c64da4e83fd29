import type { App } from '@slack/bolt';
import type { AdapterContext, AdapterHealth, ChatAdapter } from '../../src/ports/index.js';
import type { SlackAdapterOptions } from './adapter-options.js';
import { createAdminLookup } from './admin-lookup.js';
import { type BoltApp, createBoltApp } from './bolt-app.js';
import { createBoltLogger } from './bolt-logger.js';
import { type SlackBotIdentity, verifySlackBotToken } from './bot-identity.js';
import { createSlackDeliveries } from './deliveries.js';
import type { SlackAdapterEvent } from './events.js';
import { SLACK_MENTIONS } from './mentions.js';
import { createWorkspaceAddresses, slackMessageLink } from './message-link.js';
import { slackPacing } from './pacing.js';
import { createSlackTokens } from './slack-tokens.js';
import { connectSlackSocketMode } from './socket-mode.js';
import { createTokenHealth } from './token-health.js';
import { validate } from './validate-options.js';
import { createSlackWorkspaceAccess } from './workspace-access.js';
import { createWorkspaceZones } from './workspace-zone.js';

/**
 * Creates the Slack adapter: a Bolt app whose HTTP receiver is mounted on the bot's own server
 * under `/slack/` (or a Socket Mode connection when `appToken` is set), `/directory` bound to the
 * core's commands, and deliveries through chat.postMessage with outcomes as values.
 */
export function createSlackAdapter(options: SlackAdapterOptions): ChatAdapter {
  validate(options);
  const logger = options.logger.child({ adapter: 'slack' });
  const emit = (event: SlackAdapterEvent): void => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger.warn({ err: error }, 'onEvent listener threw');
    }
  };
  const boltLogger = createBoltLogger(logger);
  const tokens = createSlackTokens(options, logger, boltLogger);
  const { webClient, rotation } = tokens;

  // Only the one configured token speaks for the whole bot; OAuth tokens speak for one workspace.
  const tokenHealth = options.botToken === undefined ? undefined : createTokenHealth();
  const deliveries = createSlackDeliveries({
    client: webClient,
    tokenFor: tokens.tokenFor,
    ...(rotation === undefined ? {} : { refreshExpired: tokens.refreshExpired }),
    logger,
    emit,
    ...(tokenHealth === undefined ? {} : { tokenHealth }),
  });

  const now = options.now ?? Date.now;
  let app: App | undefined;
  let health: AdapterHealth = { ready: false, reason: 'not started' };
  let stopped = false;
  /** The bot's ids from the start-up auth.test, once known. */
  const addresses = createWorkspaceAddresses();
  let identity: SlackBotIdentity | undefined;
  let attached: BoltApp | undefined;

  /** Creates the Bolt app and mounts its routes once: no call to Slack, so it can run before the port is bound. */
  function attach(context: AdapterContext): BoltApp {
    attached ??= createBoltApp(
      {
        options,
        tokens,
        logger,
        boltLogger,
        emit,
        now,
        identity: () => identity,
        addresses,
        onSocketHealth: (next) => {
          if (!stopped) health = next;
        },
        isStopped: () => stopped,
      },
      context,
    );
    return attached;
  }

  // The control panel's questions: its own admin cache, as the panel's people are not the commands'.
  const access = createSlackWorkspaceAccess({
    client: webClient,
    botToken: options.botToken,
    installationStore: tokens.installationStore,
    clientFor: tokens.clientFor,
    admin: createAdminLookup({ logger, ttlMs: options.adminCacheTtlMs ?? 5 * 60_000, now }),
    logger,
    now,
  });

  return {
    platform: 'slack',
    pacing: slackPacing(options.workspaceMessagesPerMinute),
    mentions: SLACK_MENTIONS,
    // Replies go in a thread under their message (Slack `thread_ts`, a Discord thread).
    repliesInThreads: true,
    access,

    attach(context) {
      attach(context);
    },

    async start(context) {
      stopped = false;
      const { app: created, http, socket } = attach(context);
      app = created;
      identity =
        options.botToken === undefined
          ? undefined
          : await verifySlackBotToken(webClient, options.botToken, logger);
      if (http !== undefined) {
        health = { ready: true };
      } else if (socket !== undefined) {
        // Socket Mode: Bolt opens the WebSocket via apps.connections.open; no port is bound.
        health = await connectSlackSocketMode(created, {
          logger,
          timeoutMs: options.socketConnectTimeoutMs ?? 20_000,
        });
      }
      logger.info(
        { mode: http === undefined ? 'socket' : 'http', multiWorkspace: options.oauth !== undefined },
        'Slack adapter started',
      );
    },

    deliver: deliveries.deliver,
    deliverDirect: deliveries.deliverDirect,
    workspaceTimeZone: createWorkspaceZones({
      client: webClient,
      installationStore: tokens.installationStore,
      logger,
      now,
    }),
    edit: deliveries.edit,
    delete: deliveries.delete,
    // A multi-workspace install's channels name their team; the single token's, its one workspace.
    messageLink: (destination, reference) =>
      slackMessageLink(
        addresses.of(destination.workspaceId) ?? identity?.workspaceUrl,
        destination,
        reference,
      ),

    health() {
      // A refused token outranks a healthy connection: commands may still arrive, but nothing
      // can be posted until a later call with the token goes through.
      const tokenProblem = stopped ? undefined : tokenHealth?.problem();
      return tokenProblem === undefined ? health : { ready: false, reason: tokenProblem };
    },

    async stop() {
      stopped = true;
      attached?.homes?.stop();
      health = { ready: false, reason: 'stopped' };
      const running = app;
      app = undefined;
      if (running !== undefined && options.appToken !== undefined) await running.stop();
    },
  };
}
