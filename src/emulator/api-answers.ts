import { ApiError } from './api-error.js';
import type { Fault } from './faults.js';
import type { QuotaClass, QuotaSnapshot, Quotas } from './quotas.js';

/** The rate-limit header values a caller sees. */
export function visibleQuota(
  quotas: Quotas,
  token: string | undefined,
  cls: QuotaClass,
  quirks: boolean,
): QuotaSnapshot {
  const snapshot = quotas.snapshot(token, cls);
  // The live service has shown negative remaining values; only quirks mode shows them.
  return quirks ? snapshot : { ...snapshot, remaining: Math.max(0, snapshot.remaining) };
}

/** The body of an error answer on an API path. */
export function errorBody(error: ApiError, path: string, quirks: boolean): string {
  // V2's auth and rate-limit errors come wrapped in a non-standard `errors` list on the live service.
  if (quirks && path.startsWith('/v2/') && (error.status === 401 || error.status === 429)) {
    return JSON.stringify({ data: null, errors: [error.toBody()] });
  }
  return JSON.stringify(error.toBody());
}

/** 429 with the budget's state in `details`, as the live service answers. */
export function rateLimitError({ limit, remaining, resetSeconds }: QuotaSnapshot): ApiError {
  return new ApiError(
    429,
    'rate_limit_reached',
    'Sorry. You have exceeded your API rate limit, please try again later.',
    {
      limit,
      remaining,
      reset_in: resetSeconds,
    },
  );
}

/** The error an injected `status` fault answers; a 429 to a known token carries its real budget. */
export function injectedStatusError(fault: Fault, tokenQuota: (() => QuotaSnapshot) | undefined): ApiError {
  const status = fault.status ?? 503;
  if (status === 429 && tokenQuota !== undefined) return rateLimitError(tokenQuota());
  const codes: Record<number, string> = {
    400: 'invalid_parameter',
    401: 'unauthorized_oauth',
    404: 'not_found',
  };
  return new ApiError(status, codes[status] ?? 'server_error', `Injected fault: HTTP ${status}`);
}

/** 401 for a request without a token, or with one the emulator does not know. */
export function unauthorizedError(presented: string | undefined): ApiError {
  return new ApiError(
    401,
    'unauthorized_oauth',
    presented === undefined
      ? 'Please supply a valid access token: Authorization: Bearer <token>'
      : 'The access token is unknown, revoked or expired',
  );
}
