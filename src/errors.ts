/**
 * One error hierarchy with stable string codes. Callers branch on `code`, never on
 * `instanceof` chains or message text.
 */
export type BotErrorCode =
  | 'config_invalid'
  /** The HTTP port is held by another process. */
  | 'port_in_use'
  | 'store_unavailable'
  | 'upstream_unauthorized'
  | 'upstream_not_found'
  | 'upstream_bad_request'
  | 'upstream_rate_limited'
  | 'upstream_complexity_exceeded'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'upstream_network'
  | 'upstream_bad_response'
  | 'upstream_graphql'
  | 'quota_exhausted'
  | 'command_usage'
  | 'command_forbidden'
  | 'command_rate_limited'
  | 'platform_error'
  | 'internal';

export interface BotErrorOptions {
  cause?: unknown;
  /** HTTP method and URL for upstream failures; never include credentials. */
  method?: string;
  url?: string;
  status?: number;
  /** Milliseconds after which a retry may succeed (rate limits). */
  retryAfterMs?: number;
  details?: Record<string, unknown>;
}

export class BotError extends Error {
  readonly code: BotErrorCode;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: BotErrorCode, message: string, options: BotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BotError';
    this.code = code;
    this.method = options.method;
    this.url = options.url;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
  }
}

export function isBotError(value: unknown, code?: BotErrorCode): value is BotError {
  return value instanceof BotError && (code === undefined || value.code === code);
}
