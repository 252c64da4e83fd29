import { type RateLimitData, REST, type RESTOptions } from 'discord.js';
import type { Logger } from '../../src/ports/index.js';
import { RATE_LIMIT_OFFSET_MS } from './limits.js';

export { RATE_LIMIT_OFFSET_MS };

/** Signals from discord.js REST worth counting (metrics) — the SDK owns the buckets, we watch. */
export type DiscordRestEvent =
  | {
      type: 'rateLimited';
      method: string;
      route: string;
      majorParameter: string;
      global: boolean;
      scope: string;
      retryAfterMs: number;
    }
  | { type: 'response'; method: string; route: string; status: number }
  | { type: 'invalidRequestWarning'; count: number; remainingTimeMs: number };

export interface DiscordRestOptions {
  token?: string;
  /** Base URL without the version, e.g. `http://127.0.0.1:PORT/api` (discord.js REST `api`). */
  apiUrl?: string;
  logger: Logger;
  onEvent?: (event: DiscordRestEvent) => void;
  /**
   * How often discord.js repeats a request that timed out or got a 5xx (default 1). 0 for posts:
   * a post whose answer was lost may have been made, and repeating it could post twice.
   */
  retries?: number;
  /** Milliseconds before discord.js gives up on an answer (default 10 s). */
  timeoutMs?: number;
}

/**
 * The requests the outbox makes (method and discord.js bucket route): feed posts, thread replies
 * and DMs, forum posts, thread starts and unarchiving, DM channels, and edits.
 */
const OUTBOX_ROUTES = new Set([
  'POST /channels/:id/messages',
  'POST /channels/:id/threads',
  'POST /channels/:id/messages/:id/threads',
  'PATCH /channels/:id',
  'PATCH /channels/:id/messages/:id',
  'POST /users/@me/channels',
]);
/** A global wait shorter than this is a blip; waiting is cheaper than a failed delivery and a retry. */
const MAX_GLOBAL_WAIT_MS = 1_000;

/**
 * Whether discord.js should throw a RateLimitError instead of waiting. Only for what the outbox
 * sends (posts, thread starts, edits): it owns their retries and per-channel pacing, so a channel
 * that is rate limited (or a 429 storm) comes back at once as `failed` with `retryAfterMs` instead
 * of holding a delivery worker for the length of the reset while other channels wait behind it.
 * Interaction responses still wait: they are time-critical for one user and the outbox never
 * sees them.
 */
export function rejectOutboxRequestOnRateLimit(data: RateLimitData): boolean {
  if (!OUTBOX_ROUTES.has(`${data.method.toUpperCase()} ${data.route}`)) return false;
  return !data.global || data.retryAfter > MAX_GLOBAL_WAIT_MS;
}

/**
 * Creates a discord.js REST client: the adapter's for every call (deliveries, interaction
 * responses and follow-ups), and with `retries: 0` the one it posts with. Events are bridged to
 * `onEvent` for metrics.
 */
export function createDiscordRest(options: DiscordRestOptions): REST {
  const restOptions: Partial<RESTOptions> = {
    version: '10',
    rejectOnRateLimit: rejectOutboxRequestOnRateLimit,
    // One retry smooths over a dropped connection; the outbox does the patient retrying.
    retries: options.retries ?? 1,
    timeout: options.timeoutMs ?? 10_000,
    offset: RATE_LIMIT_OFFSET_MS,
    // Warn well before Discord's 10,000 invalid requests per 10 minutes (a temporary IP ban).
    invalidRequestWarningInterval: 500,
  };
  if (options.apiUrl !== undefined) restOptions.api = options.apiUrl;
  const rest = new REST(restOptions);
  if (options.token) rest.setToken(options.token);

  const { onEvent, logger } = options;
  rest.on('rateLimited', (data) => {
    logger.debug(
      { route: data.route, retryAfterMs: data.retryAfter, global: data.global },
      'discord rate limited',
    );
    onEvent?.({
      type: 'rateLimited',
      method: data.method,
      route: data.route,
      majorParameter: data.majorParameter,
      global: data.global,
      scope: data.scope,
      retryAfterMs: data.retryAfter,
    });
  });
  rest.on('invalidRequestWarning', (data) => {
    logger.warn({ count: data.count, remainingTimeMs: data.remainingTime }, 'many invalid discord requests');
    onEvent?.({ type: 'invalidRequestWarning', count: data.count, remainingTimeMs: data.remainingTime });
  });
  if (onEvent) {
    rest.on('response', (request, response) => {
      onEvent({ type: 'response', method: request.method, route: request.route, status: response.status });
    });
  }
  return rest;
}
