/**
 * One error hierarchy with stable string codes. Callers branch on `code`, never on
 * `instanceof` chains or message text.
 */
export type BotErrorCode =
  | 'config_invalid'
  /** The HTTP port is held by another process. */
  | 'port_in_use'
  | 'store_unavailable'
  /** A sealed secret in the store was written under neither STORE_ENCRYPTION_KEY nor _PREVIOUS. */
  | 'store_key_mismatch'
  /** A sealed secret failed authentication: tampered with, truncated, or not ours. */
  | 'store_secret_corrupt'
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

/**
 * The message of anything thrown: an Error's own message, anything else as a string (code may
 * throw strings or plain objects, and a log line or reply must still say something).
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isBotError(value: unknown, code?: BotErrorCode): value is BotError {
  return value instanceof BotError && (code === undefined || value.code === code);
}

/**
 * A configuration the bot cannot run with: a bad or missing environment variable, or a value
 * a platform refused. Each problem is one line that starts with the variable's name, so the
 * CLI can print them as they are and exit 78 (EX_CONFIG). It is an ordinary BotError with
 * code `config_invalid`; catch it with `configProblems(error)`, not `instanceof`.
 */
export class ConfigError extends BotError {
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[], options: Pick<BotErrorOptions, 'cause'> = {}) {
    const lines = typeof problems === 'string' ? [problems] : [...problems];
    super('config_invalid', `Invalid configuration: ${lines.join('; ')}`, {
      ...options,
      details: { problems: lines },
    });
    this.name = 'ConfigError';
    this.problems = lines;
  }
}

/**
 * A command line the CLI cannot run: an unknown flag, a missing or malformed value. The
 * subcommand that throws it prints the message and exits 2 (EX_USAGE-like); it never leaves the
 * CLI, so it is a plain Error rather than a BotError with a code.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The problem lines of any `config_invalid` error (a ConfigError, or a BotError with that code
 * thrown elsewhere, whose message is then the one line); undefined for every other error.
 */
export function configProblems(error: unknown): readonly string[] | undefined {
  if (!isBotError(error, 'config_invalid')) return undefined;
  const listed = error.details?.['problems'];
  if (Array.isArray(listed) && listed.every((line) => typeof line === 'string')) return listed;
  return [error.message];
}
