import { type App, type Logger as BoltLogger, SocketModeReceiver, type webApi } from '@slack/bolt';
import { type AdapterHealth, type Logger, withDeadline } from '../../src/ports/index.js';

export interface SlackSocketModeOptions {
  /** App-level token (`xapp-…`) that opens the WebSocket via apps.connections.open. */
  appToken: string;
  boltLogger: BoltLogger;
  clientOptions: webApi.WebClientOptions;
  /** Told of each change of the connection, so readiness follows the WebSocket. */
  onHealth: (health: AdapterHealth) => void;
}

/** Bolt's Socket Mode receiver: Slack pushes events over a WebSocket, so no request URL is needed. */
export function createSlackSocketModeReceiver(options: SlackSocketModeOptions): SocketModeReceiver {
  const socket = new SocketModeReceiver({
    appToken: options.appToken,
    logger: options.boltLogger,
    installerOptions: { clientOptions: options.clientOptions },
  });
  // Slack refreshes the WebSocket regularly and the client reconnects.
  socket.client.on('connected', () => options.onHealth({ ready: true }));
  socket.client.on('reconnecting', () =>
    options.onHealth({ ready: false, reason: 'Slack Socket Mode reconnecting' }),
  );
  socket.client.on('disconnected', () =>
    options.onHealth({ ready: false, reason: 'Slack Socket Mode disconnected' }),
  );
  return socket;
}

/**
 * Starts the app and waits for the first Socket Mode connection, but never past the deadline:
 * a boot must not hang. Not connected by then, the client keeps retrying in the background.
 */
export async function connectSlackSocketMode(
  app: App,
  { logger, timeoutMs }: { logger: Logger; timeoutMs: number },
): Promise<AdapterHealth> {
  const started = app.start().then(
    () => 'connected' as const,
    (error: unknown) => {
      logger.error({ err: error }, 'Slack Socket Mode failed to start');
      return 'failed' as const;
    },
  );
  const result = await withDeadline(started, timeoutMs, () => 'timeout' as const);
  if (result === 'connected') return { ready: true };
  logger.warn({ timeoutMs }, 'Slack Socket Mode is not connected yet; continuing to retry');
  return { ready: false, reason: `Slack Socket Mode not connected (${result})` };
}
