import { App, type Logger as BoltLogger, type HTTPReceiver, type SocketModeReceiver } from '@slack/bolt';
import type { AdapterContext, AdapterHealth, Logger } from '../../src/ports/index.js';
import type { SlackAdapterOptions } from './adapter-options.js';
import { createAdminLookup } from './admin-lookup.js';
import { type SlackBotIdentity, singleTokenAuthorize } from './bot-identity.js';
import { bindDirectoryCommand } from './command-binding.js';
import type { SlackAdapterEvent } from './events.js';
import type { HomePublisher } from './home-publisher.js';
import { bindHomeTab } from './home-tab.js';
import { createSlackHttpReceiver, mountSlackHttpReceiver } from './http-receiver.js';
import { bindLinkUnfurls } from './link-unfurls.js';
import type { WorkspaceAddresses } from './message-link.js';
import { oauthInstallOptions } from './oauth-install.js';
import { bindReplayGuard, memoryReplayClaims } from './replay-guard.js';
import type { SlackTokens } from './slack-tokens.js';
import { createSlackSocketModeReceiver } from './socket-mode.js';
import { bindUninstallEvents } from './uninstall-events.js';

export interface BoltAppDeps {
  options: SlackAdapterOptions;
  tokens: SlackTokens;
  logger: Logger;
  boltLogger: BoltLogger;
  emit(event: SlackAdapterEvent): void;
  now: () => number;
  /** The bot's ids from the start-up auth.test, once known. */
  identity(): SlackBotIdentity | undefined;
  /** Each workspace's address, learnt from the requests it sends (for links to messages). */
  addresses: WorkspaceAddresses;
  /** Socket Mode's connection state, as it changes. */
  onSocketHealth(health: AdapterHealth): void;
  isStopped(): boolean;
}

/** The Bolt app with everything bound, and the receiver it listens through. */
export interface BoltApp {
  app: App;
  http?: HTTPReceiver;
  socket?: SocketModeReceiver;
  homes?: HomePublisher;
}

function createReceiver(deps: BoltAppDeps): { http: HTTPReceiver } | { socket: SocketModeReceiver } {
  const { options, tokens, boltLogger } = deps;
  if (options.appToken !== undefined) {
    const socket = createSlackSocketModeReceiver({
      appToken: options.appToken,
      boltLogger,
      clientOptions: tokens.clientOptions,
      onHealth: deps.onSocketHealth,
    });
    return { socket };
  }
  const { oauth } = options;
  const { installationStore } = tokens;
  const http = createSlackHttpReceiver({
    signingSecret: options.signingSecret,
    boltLogger,
    ...(oauth === undefined || installationStore === undefined
      ? {}
      : { install: oauthInstallOptions(oauth, installationStore, tokens.clientOptions) }),
  });
  return { http };
}

/**
 * Creates the Bolt app, binds `/directory`, the buttons, forms, unfurls, uninstalls and the App
 * Home to the core, and mounts the HTTP routes: no call to Slack, so it can run before the port
 * is bound.
 */
export function createBoltApp(deps: BoltAppDeps, context: AdapterContext): BoltApp {
  const { options, tokens, logger, boltLogger, emit, now } = deps;
  const receiver = createReceiver(deps);
  const botToken = options.botToken;
  const app = new App({
    receiver: 'http' in receiver ? receiver.http : receiver.socket,
    logger: boltLogger,
    clientOptions: tokens.clientOptions,
    ...(botToken === undefined ? {} : { authorize: singleTokenAuthorize(botToken, deps.identity) }),
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  bindReplayGuard({ app, claims: options.replayClaims ?? memoryReplayClaims(now), logger, emit });
  // A verified request (the receiver checked its signature) names its workspace's address.
  app.use(async ({ body, next }) => {
    deps.addresses.learn(body);
    await next();
  });
  const admin = createAdminLookup({ logger, ttlMs: options.adminCacheTtlMs ?? 5 * 60_000, now });
  bindDirectoryCommand({
    app,
    commands: context.commands,
    admin,
    logger,
    emit,
    commandName: options.commandName ?? '/directory',
    ackBudgetMs: options.ackBudgetMs ?? 2000,
  });
  bindLinkUnfurls(app, { commands: context.commands, logger, emit });
  if (context.workspaceRemoved) bindUninstallEvents(app, context.workspaceRemoved, logger);
  const homes =
    context.home === undefined
      ? undefined
      : bindHomeTab({
          app,
          home: context.home,
          admin,
          clientFor: tokens.clientFor,
          soleWorkspace: botToken !== undefined,
          logger,
          emit,
          now,
          ...(options.homePublishLimit === undefined ? {} : { publishLimit: options.homePublishLimit }),
        });
  if ('http' in receiver) {
    mountSlackHttpReceiver(context.http, receiver.http, { logger, isStopped: deps.isStopped });
  }
  return { app, ...receiver, ...(homes === undefined ? {} : { homes }) };
}
