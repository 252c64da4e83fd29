import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger as BoltLogger, ErrorCode, HTTPReceiver, type HTTPReceiverOptions } from '@slack/bolt';
import type { HttpMount, Logger } from '../../src/ports/index.js';

export interface SlackHttpReceiverOptions {
  /** Bolt checks every request's `X-Slack-Signature` against this before a listener sees it. */
  signingSecret: string;
  boltLogger: BoltLogger;
  /** The OAuth install routes, for a multi-workspace app. */
  install?: Partial<HTTPReceiverOptions>;
}

/** Bolt's receiver for Events API and slash-command requests, signature-verified, under `/slack/events`. */
export function createSlackHttpReceiver(options: SlackHttpReceiverOptions): HTTPReceiver {
  return new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: ['/slack/events'],
    logger: options.boltLogger,
    ...options.install,
  });
}

export interface MountSlackHttpOptions {
  logger: Logger;
  /** After stop() the adapter answers 503 instead of handing requests to a stopped app. */
  isStopped: () => boolean;
}

/** Serves the receiver under `/slack/` on the bot's own HTTP server; Bolt never binds a port. */
export function mountSlackHttpReceiver(
  http: HttpMount,
  receiver: HTTPReceiver,
  { logger, isStopped }: MountSlackHttpOptions,
): void {
  http.mount('/slack/', (req: IncomingMessage, res: ServerResponse) => {
    if (isStopped()) {
      res.writeHead(503).end();
      return;
    }
    try {
      receiver.requestListener(req, res);
    } catch (error) {
      // Bolt throws this for paths it does not own (e.g. /slack/install without OAuth).
      const code = (error as { code?: unknown }).code;
      if (code !== ErrorCode.HTTPReceiverDeferredRequestError)
        logger.error({ err: error }, 'Slack request failed');
      if (!res.headersSent)
        res.writeHead(code === ErrorCode.HTTPReceiverDeferredRequestError ? 404 : 500).end();
    }
  });
}
