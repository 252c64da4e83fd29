import { BotError, type BotErrorCode, messageOf } from '../errors.js';

/**
 * Turns the directory's real-world failure bodies into BotErrors with stable codes:
 * V1 `{error, error_description, details}`, V2's non-standard `errors: [{error, ...}]`,
 * standard GraphQL errors, the complexity refusal, and HTML challenge pages.
 */

export interface FailedResponse {
  method: string;
  /** The request URL; it never carries the token (that travels in a header). */
  url: string;
  status: number;
  contentType: string | undefined;
  body: string;
  /** `X-Rate-Limit-Reset` in seconds, when the response carried it. */
  resetSeconds: number | undefined;
}

const CODE_BY_UPSTREAM_ERROR: Record<string, BotErrorCode> = {
  unauthorized_oauth: 'upstream_unauthorized',
  invalid_oauth: 'upstream_unauthorized',
  invalid_oauth_token: 'upstream_unauthorized',
  unauthorized: 'upstream_unauthorized',
  invalid_token: 'upstream_unauthorized',
  not_found: 'upstream_not_found',
  rate_limit_reached: 'upstream_rate_limited',
  invalid_parameter: 'upstream_bad_request',
  invalid_request: 'upstream_bad_request',
  bad_request: 'upstream_bad_request',
};

const COMPLEXITY_PATTERN = /complexity of (\d+),? which exceeds max(?:imum)? complexity of (\d+)/i;

/** A non-2xx response (other than 304) as a BotError. */
export function errorFromResponse(response: FailedResponse): BotError {
  const { status } = response;
  const json = parseJsonObject(response.body, response.contentType);
  if (json === undefined) {
    // An HTML challenge page (403/503 from a proxy in front of the API) or a bare gateway
    // error: transient, and worth a clear line rather than a parse failure.
    const code =
      status === 401
        ? 'upstream_unauthorized'
        : status === 429
          ? 'upstream_rate_limited'
          : 'upstream_unavailable';
    const kind = looksLikeHtml(response.body, response.contentType) ? 'an HTML page' : 'a non-JSON body';
    return build(code, response, `${status} with ${kind} instead of JSON`, undefined);
  }
  const described = describeErrorBody(json);
  // A 5xx is the service failing whatever its body says; otherwise a known upstream error
  // code wins over the status, and the status decides for codes we do not know.
  const code = status >= 500 ? 'upstream_unavailable' : (described?.code ?? codeForStatus(status));
  const text = described?.text ?? `HTTP ${status}`;
  return build(code, response, text, described?.details);
}

/**
 * A 200 GraphQL response whose `errors` is non-empty, as a BotError. V2 reports auth and
 * rate limits in `errors` without `message`; the complexity cap arrives as a message.
 */
export function errorFromGraphqlErrors(
  errors: readonly unknown[],
  response: Omit<FailedResponse, 'body' | 'contentType'>,
): BotError {
  const described = describeErrorBody({ errors });
  const full: FailedResponse = { ...response, body: '', contentType: undefined };
  if (described) return build(described.code ?? 'upstream_graphql', full, described.text, described.details);
  return build('upstream_graphql', full, 'GraphQL errors', undefined);
}

/** An exception thrown by undici while sending or reading, as a BotError. */
export function errorFromException(error: unknown, method: string, url: string): BotError {
  const code = (error as { code?: unknown } | null)?.code;
  const causeCode = (
    (error as { cause?: { code?: unknown } } | null)?.cause as { code?: unknown } | undefined
  )?.code;
  const errorCode = typeof code === 'string' ? code : typeof causeCode === 'string' ? causeCode : 'unknown';
  const timeout =
    errorCode === 'UND_ERR_CONNECT_TIMEOUT' ||
    errorCode === 'UND_ERR_HEADERS_TIMEOUT' ||
    errorCode === 'UND_ERR_BODY_TIMEOUT' ||
    errorCode === 'ETIMEDOUT';
  // Whether the request certainly never reached the service (safe to resend even a DELETE).
  const notSent =
    errorCode === 'ECONNREFUSED' ||
    errorCode === 'UND_ERR_CONNECT_TIMEOUT' ||
    errorCode === 'ENOTFOUND' ||
    errorCode === 'EAI_AGAIN';
  const message = messageOf(error);
  return new BotError(
    timeout ? 'upstream_timeout' : 'upstream_network',
    `${method} ${url} failed: ${errorCode} ${message}`.trim(),
    { cause: error, method, url, details: { errorCode, notSent } },
  );
}

interface DescribedError {
  /** Undefined for an upstream error code this client does not know. */
  code: BotErrorCode | undefined;
  text: string;
  details: Record<string, unknown> | undefined;
}

/** Reads V1 `{error, error_description}` or V2 `{errors: [...]}` bodies. */
function describeErrorBody(json: Record<string, unknown>): DescribedError | undefined {
  if (typeof json['error'] === 'string') return fromUpstreamError(json);
  const errors = json['errors'];
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const first = errors[0];
  if (
    first !== null &&
    typeof first === 'object' &&
    typeof (first as Record<string, unknown>)['error'] === 'string'
  ) {
    return fromUpstreamError(first as Record<string, unknown>);
  }
  const messages = errors
    .map((entry) =>
      entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>)['message'] : undefined,
    )
    .filter((message): message is string => typeof message === 'string');
  const complexity = messages.map((m) => COMPLEXITY_PATTERN.exec(m)).find((m) => m !== null);
  if (complexity) {
    return {
      code: 'upstream_complexity_exceeded',
      text: complexity[0],
      details: { complexity: Number(complexity[1]), maxComplexity: Number(complexity[2]) },
    };
  }
  return {
    code: 'upstream_graphql',
    text: messages.length > 0 ? messages.join('; ') : 'GraphQL errors without a message',
    details: { errors: errors.slice(0, 5) },
  };
}

function fromUpstreamError(entry: Record<string, unknown>): DescribedError {
  const upstream = String(entry['error']);
  const description = typeof entry['error_description'] === 'string' ? entry['error_description'] : '';
  const details =
    entry['details'] !== null && typeof entry['details'] === 'object'
      ? (entry['details'] as Record<string, unknown>)
      : undefined;
  return {
    code: CODE_BY_UPSTREAM_ERROR[upstream],
    text: description ? `${upstream}: ${description}` : upstream,
    details: { upstreamError: upstream, ...details },
  };
}

function codeForStatus(status: number): BotErrorCode {
  if (status === 401 || status === 403) return 'upstream_unauthorized';
  if (status === 404) return 'upstream_not_found';
  if (status === 429) return 'upstream_rate_limited';
  if (status >= 500) return 'upstream_unavailable';
  if (status >= 400) return 'upstream_bad_request';
  return 'upstream_bad_response';
}

function build(
  code: BotErrorCode,
  response: FailedResponse,
  text: string,
  details: Record<string, unknown> | undefined,
): BotError {
  const { method, url, status } = response;
  const retryAfterMs =
    code === 'upstream_rate_limited' ? rateLimitRetryMs(details, response.resetSeconds) : undefined;
  const options = {
    method,
    url,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(details === undefined ? {} : { details }),
  };
  return new BotError(code, `${method} ${url} → ${status}: ${truncateText(text, 300)}`, options);
}

/** `details.reset_in` (seconds) wins over the header; both are seconds until the reset. */
function rateLimitRetryMs(details: Record<string, unknown> | undefined, resetSeconds: number | undefined) {
  const resetIn = details?.['reset_in'];
  const seconds = typeof resetIn === 'number' && resetIn >= 0 ? resetIn : resetSeconds;
  return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
}

/** Parses a body as a JSON object; undefined for HTML, empty or non-object bodies. */
export function parseJsonObject(
  body: string,
  contentType: string | undefined,
): Record<string, unknown> | undefined {
  const trimmed = body.trimStart();
  if (!trimmed.startsWith('{')) return undefined;
  if (contentType !== undefined && /html/i.test(contentType)) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function looksLikeHtml(body: string, contentType: string | undefined): boolean {
  return (contentType !== undefined && /html/i.test(contentType)) || /^\s*<(!doctype|html)/i.test(body);
}

function truncateText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
