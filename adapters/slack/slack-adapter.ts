import { App, type HTTPReceiver, type Receiver, type SocketModeReceiver, webApi } from '@slack/bolt';
import type {
  AdapterContext,
  AdapterHealth,
  ChatAdapter,
  DeliveryPacing,
  Destination,
  Logger,
  WindowLimit,
} from '../../src/ports/index.js';
import { createAdminLookup } from './admin-lookup.js';
import { createBoltLogger } from './bolt-logger.js';
import { type SlackBotIdentity, singleTokenAuthorize, verifySlackBotToken } from './bot-identity.js';
import { bindDirectoryCommand } from './command-binding.js';
import { createSlackDeliveries } from './direct-message.js';
import type { SlackAdapterEvent } from './events.js';
import type { HomePublisher } from './home-publisher.js';
import { bindHomeTab } from './home-tab.js';
import { createSlackHttpReceiver, mountSlackHttpReceiver } from './http-receiver.js';
import { createKeyValueInstallationStore } from './installation-store.js';
import { bindLinkUnfurls } from './link-unfurls.js';
import { installedBotToken, oauthInstallOptions, type SlackOAuthOptions } from './oauth-install.js';
import { connectSlackSocketMode, createSlackSocketModeReceiver } from './socket-mode.js';
import { createTokenHealth } from './token-health.js';
import { createTokenRotation, type TokenRotation } from './token-rotation.js';
import { bindUninstallEvents } from './uninstall-events.js';
import { validate } from './validate-options.js';
import { createWorkspaceZones } from './workspace-zone.js';

export interface SlackAdapterOptions {
  /** Single-workspace bot token (`xoxb-…`). Either this or `oauth`. */
  botToken?: string;
  signingSecret: string;
  /** App-level token (`xapp-…`): use Socket Mode instead of HTTP request URLs. */
  appToken?: string;
  /** Slack Web API base, e.g. `https://slack.com/api/` (tests, GovSlack: `https://slack-gov.com/api/`). */
  apiUrl?: string;
  /** Multi-workspace install via OAuth; deliveries then use the token of `destination.workspaceId`. */
  oauth?: SlackOAuthOptions;
  logger: Logger;
  onEvent?: (event: SlackAdapterEvent) => void;
  /** The slash command as configured in the manifest. Default `/directory`. */
  commandName?: string;
  /** Wait this long for the core before acking "Working on it…". Default 2000 ms (Slack allows 3000). */
  ackBudgetMs?: number;
  /**
   * How long any Slack Web API call may take before it is abandoned (a `failed` delivery, retried
   * by the outbox). Default 10 s. The client's own default is no timeout at all, so one hung
   * chat.postMessage would hold the channel's only delivery slot and block shutdown.
   */
  requestTimeoutMs?: number;
  /**
   * The outbox's pace for feed messages across every channel this adapter serves (all its
   * workspaces), per minute; default 240 (`SLACK_WORKSPACE_MESSAGES_PER_MINUTE`).
   */
  workspaceMessagesPerMinute?: number;
  /** How long a users.info admin answer is trusted. Default 5 minutes. */
  adminCacheTtlMs?: number;
  /** Clock for the admin cache. Default `Date.now`. */
  now?: () => number;
  /**
   * Socket Mode: how long start() waits for the first connection before resolving not ready (the
   * client keeps retrying in the background). Default 20 s, inside Heroku's 60 s boot limit.
   */
  socketConnectTimeoutMs?: number;
  /** The App Home's views.publish pace per workspace. Default 90 a minute (Tier 4). */
  homePublishLimit?: WindowLimit;
}

/** The default of `SLACK_WORKSPACE_MESSAGES_PER_MINUTE`. */
export const SLACK_WORKSPACE_MESSAGES_PER_MINUTE = 240;

/**
 * chat.postMessage is Slack's "special" tier: "1 message per second to a specific channel" with
 * short bursts, and a workspace-wide limit published only as "several hundred messages per
 * minute" with "generous burst behavior" (CONTRACTS.md §1(c); docs/slack.md). With no number to
 * learn and no header that states it before a 429, the workspace pace is a setting: the low end
 * of "several hundred", with a burst of five seconds' worth.
 */
export function slackPacing(
  workspaceMessagesPerMinute = SLACK_WORKSPACE_MESSAGES_PER_MINUTE,
): DeliveryPacing {
  return {
    perDestination: { ratePerSecond: 1, burst: 3 },
    global: {
      ratePerSecond: workspaceMessagesPerMinute / 60,
      burst: Math.max(1, Math.round(workspaceMessagesPerMinute / 12)),
    },
  };
}

export const SLACK_PACING: DeliveryPacing = slackPacing();

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

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
  // 429s are rejected, not slept on, and nothing is retried inside the client: the core's outbox
  // owns pacing and retries, and a sleeping client would hold up every other channel.
  const clientOptions: webApi.WebClientOptions = {
    logger: boltLogger,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    // Shared by every client the adapter and Bolt create (deliveries, commands, OAuth, Socket Mode).
    timeout: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    ...(options.apiUrl === undefined ? {} : { slackApiUrl: options.apiUrl }),
  };
  const webClient = new webApi.WebClient(undefined, clientOptions);
  const rotation: TokenRotation | undefined =
    options.oauth === undefined
      ? undefined
      : createTokenRotation({
          store: createKeyValueInstallationStore(options.oauth.installationStore, options.oauth.secrets),
          client: webClient,
          clientId: options.oauth.clientId,
          clientSecret: options.oauth.clientSecret,
          logger,
          ...(options.now === undefined ? {} : { now: options.now }),
        });
  // Bolt (commands, events) and deliveries both read installs through the rotation, so neither
  // ever holds an expired token while a refresh token could renew it.
  const installationStore = rotation?.store;

  async function tokenFor(destination: Destination): Promise<string | undefined> {
    if (options.botToken !== undefined) return options.botToken;
    if (installationStore === undefined || destination.workspaceId === undefined) return undefined;
    return installedBotToken(installationStore, destination.workspaceId);
  }

  async function refreshExpired(destination: Destination, usedToken: string): Promise<string | undefined> {
    if (rotation === undefined || destination.workspaceId === undefined) return undefined;
    const query = { teamId: destination.workspaceId, enterpriseId: undefined, isEnterpriseInstall: false };
    return (await rotation.refreshExpired(query, usedToken)).bot?.token;
  }

  // Only the one configured token speaks for the whole bot; OAuth tokens speak for one workspace.
  const tokenHealth = options.botToken === undefined ? undefined : createTokenHealth();
  const { deliver, deliverDirect, edit } = createSlackDeliveries({
    client: webClient,
    tokenFor,
    ...(rotation === undefined ? {} : { refreshExpired }),
    logger,
    emit,
    ...(tokenHealth === undefined ? {} : { tokenHealth }),
  });

  const now = options.now ?? Date.now;
  let app: App | undefined;
  let health: AdapterHealth = { ready: false, reason: 'not started' };
  let stopped = false;
  /** The bot's ids from the start-up auth.test, once known. */
  let identity: SlackBotIdentity | undefined;

  function createReceiver(): { receiver: Receiver; http?: HTTPReceiver; socket?: SocketModeReceiver } {
    if (options.appToken !== undefined) {
      const socket = createSlackSocketModeReceiver({
        appToken: options.appToken,
        boltLogger,
        clientOptions,
        onHealth: (next) => {
          if (!stopped) health = next;
        },
      });
      return { receiver: socket, socket };
    }
    const oauth = options.oauth;
    const http = createSlackHttpReceiver({
      signingSecret: options.signingSecret,
      boltLogger,
      ...(oauth === undefined || installationStore === undefined
        ? {}
        : { install: oauthInstallOptions(oauth, installationStore, clientOptions) }),
    });
    return { receiver: http, http };
  }

  let attached: { app: App; http?: HTTPReceiver; socket?: SocketModeReceiver } | undefined;
  let homes: HomePublisher | undefined;

  /** Creates the Bolt app and mounts its routes: no call to Slack, so it can run before the port is bound. */
  function attach(context: AdapterContext) {
    if (attached !== undefined) return attached;
    const { receiver, http, socket } = createReceiver();
    const botToken = options.botToken;
    const created = new App({
      receiver,
      logger: boltLogger,
      clientOptions,
      ...(botToken === undefined ? {} : { authorize: singleTokenAuthorize(botToken, () => identity) }),
    });
    created.error(async (error) => {
      logger.error({ err: error }, 'unhandled error in a Slack listener');
    });
    const admin = createAdminLookup({ logger, ttlMs: options.adminCacheTtlMs ?? 5 * 60_000, now });
    bindDirectoryCommand({
      app: created,
      commands: context.commands,
      admin,
      logger,
      emit,
      commandName: options.commandName ?? '/directory',
      ackBudgetMs: options.ackBudgetMs ?? 2000,
    });
    bindLinkUnfurls(created, { commands: context.commands, logger, emit });
    if (context.workspaceRemoved) bindUninstallEvents(created, context.workspaceRemoved, logger);
    if (context.home !== undefined) {
      const clientFor = async (workspaceId: string) => {
        const token = await tokenFor({ platform: 'slack', channelId: '', workspaceId });
        return token === undefined ? undefined : new webApi.WebClient(token, clientOptions);
      };
      const soleWorkspace = options.botToken !== undefined;
      const limit = options.homePublishLimit === undefined ? {} : { publishLimit: options.homePublishLimit };
      homes = bindHomeTab({
        app: created,
        home: context.home,
        admin,
        clientFor,
        soleWorkspace,
        logger,
        emit,
        now,
        ...limit,
      });
    }
    if (http !== undefined) mountSlackHttpReceiver(context.http, http, { logger, isStopped: () => stopped });
    attached = {
      app: created,
      ...(http === undefined ? {} : { http }),
      ...(socket === undefined ? {} : { socket }),
    };
    return attached;
  }

  return {
    platform: 'slack',
    pacing: slackPacing(options.workspaceMessagesPerMinute),

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

    deliver,
    deliverDirect,
    workspaceTimeZone: createWorkspaceZones({ client: webClient, installationStore, logger, now }),
    edit,

    health() {
      // A refused token outranks a healthy connection: commands may still arrive, but nothing
      // can be posted until a later call with the token goes through.
      const tokenProblem = stopped ? undefined : tokenHealth?.problem();
      return tokenProblem === undefined ? health : { ready: false, reason: tokenProblem };
    },

    async stop() {
      stopped = true;
      homes?.stop();
      health = { ready: false, reason: 'stopped' };
      const running = app;
      app = undefined;
      if (running !== undefined && options.appToken !== undefined) await running.stop();
    },
  };
}
