import { type Logger as BoltLogger, type InstallationStore, webApi } from '@slack/bolt';
import type { Destination, Logger } from '../../src/ports/index.js';
import type { SlackAdapterOptions } from './adapter-options.js';
import { createKeyValueInstallationStore } from './installation-store.js';
import { installedBotToken } from './oauth-install.js';
import { createTokenRotation, type TokenRotation } from './token-rotation.js';

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** The Web API clients the adapter and Bolt use, and the token each workspace is spoken to with. */
export interface SlackTokens {
  clientOptions: webApi.WebClientOptions;
  /** A client without a token: deliveries pass the workspace's token per call. */
  webClient: webApi.WebClient;
  /** The installs, read through the rotation (multi-workspace only). */
  installationStore?: InstallationStore;
  /** Present only with OAuth: the single bot token cannot be refreshed. */
  rotation?: TokenRotation;
  tokenFor(destination: Destination): Promise<string | undefined>;
  refreshExpired(destination: Destination, usedToken: string): Promise<string | undefined>;
  /** A client holding the workspace's bot token; undefined when the bot has none for it. */
  clientFor(workspaceId: string): Promise<webApi.WebClient | undefined>;
}

export function createSlackTokens(
  options: SlackAdapterOptions,
  logger: Logger,
  boltLogger: BoltLogger,
): SlackTokens {
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

  async function clientFor(workspaceId: string): Promise<webApi.WebClient | undefined> {
    const token = await tokenFor({ platform: 'slack', channelId: '', workspaceId });
    return token === undefined ? undefined : new webApi.WebClient(token, clientOptions);
  }

  return {
    clientOptions,
    webClient,
    ...(installationStore === undefined ? {} : { installationStore }),
    ...(rotation === undefined ? {} : { rotation }),
    tokenFor,
    refreshExpired,
    clientFor,
  };
}
