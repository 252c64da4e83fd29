import { describe, expect, it } from 'vitest';
import {
  errorFromException,
  errorFromGraphqlErrors,
  errorFromResponse,
} from '../../src/directory/upstream-errors.js';

const base = { method: 'GET', url: 'http://127.0.0.1:1/v1/comments?per_page=5', resetSeconds: undefined };
const json = 'application/json; charset=utf-8';

describe('mapping upstream failures', () => {
  it.each([
    [
      401,
      { error: 'unauthorized_oauth', error_description: 'Please supply a valid access token' },
      'upstream_unauthorized',
    ],
    [404, { error: 'not_found', error_description: 'No such record' }, 'upstream_not_found'],
    [
      400,
      { error: 'invalid_parameter', error_description: 'per_page must be at most 50' },
      'upstream_bad_request',
    ],
    [500, { error: 'internal' }, 'upstream_unavailable'],
    [403, { error: 'forbidden_scope' }, 'upstream_unauthorized'],
    [502, { message: 'bad gateway' }, 'upstream_unavailable'],
    [418, {}, 'upstream_bad_request'],
  ])('maps a %i V1 error body to a stable code', (status, body, code) => {
    const error = errorFromResponse({ ...base, status, contentType: json, body: JSON.stringify(body) });
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
  });

  it('puts method and URL in the message, with the description', () => {
    const error = errorFromResponse({
      ...base,
      status: 401,
      contentType: json,
      body: JSON.stringify({
        error: 'unauthorized_oauth',
        error_description: 'Please supply a valid access token',
      }),
    });
    expect(error.message).toBe(
      'GET http://127.0.0.1:1/v1/comments?per_page=5 → 401: unauthorized_oauth: Please supply a valid access token',
    );
    expect(error.method).toBe('GET');
    expect(error.url).toBe(base.url);
  });

  it('takes a 429 retry delay from details.reset_in over the header', () => {
    const error = errorFromResponse({
      ...base,
      status: 429,
      contentType: json,
      resetSeconds: 100,
      body: JSON.stringify({
        error: 'rate_limit_reached',
        error_description: 'Sorry. You have exceeded your API hourly rate limit.',
        details: { limit: 900, remaining: 0, reset_in: 42 },
      }),
    });
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.retryAfterMs).toBe(42_000);
    expect(error.details).toMatchObject({ limit: 900, reset_in: 42 });
  });

  it('falls back to X-Rate-Limit-Reset for a 429 without details', () => {
    const error = errorFromResponse({ ...base, status: 429, contentType: json, resetSeconds: 7, body: '{}' });
    expect(error.retryAfterMs).toBe(7_000);
  });

  it.each([403, 503])('treats an HTML challenge page with %i as a transient unavailability', (status) => {
    const error = errorFromResponse({
      ...base,
      status,
      contentType: 'text/html',
      body: '<!DOCTYPE html><html><title>Just a moment...</title></html>',
    });
    expect(error.code).toBe('upstream_unavailable');
    expect(error.message).toContain('HTML page');
  });

  it('reads the V2 non-standard auth and rate-limit errors', () => {
    const unauthorized = errorFromResponse({
      ...base,
      method: 'POST',
      status: 401,
      contentType: json,
      body: JSON.stringify({
        data: null,
        errors: [{ error: 'invalid_oauth_token', error_description: 'The access token is invalid' }],
      }),
    });
    expect(unauthorized.code).toBe('upstream_unauthorized');
    const limited = errorFromGraphqlErrors(
      [
        {
          error: 'rate_limit_reached',
          error_description: 'slow down',
          details: { limit: 6250, remaining: -50, reset_in: 9 },
        },
      ],
      { method: 'POST', url: 'http://x/v2/api/graphql', status: 200, resetSeconds: undefined },
    );
    expect(limited.code).toBe('upstream_rate_limited');
    expect(limited.retryAfterMs).toBe(9_000);
  });

  it('recognises the complexity refusal', () => {
    const error = errorFromGraphqlErrors(
      [{ message: 'Query has complexity of 1126, which exceeds max complexity of 1000' }],
      { method: 'POST', url: 'http://x/v2/api/graphql', status: 200, resetSeconds: undefined },
    );
    expect(error.code).toBe('upstream_complexity_exceeded');
    expect(error.details).toEqual({ complexity: 1126, maxComplexity: 1000 });
  });

  it('reports standard GraphQL errors with their messages', () => {
    const error = errorFromGraphqlErrors([{ message: 'Field "nope" does not exist', locations: [] }], {
      method: 'POST',
      url: 'http://x/v2/api/graphql',
      status: 200,
      resetSeconds: undefined,
    });
    expect(error.code).toBe('upstream_graphql');
    expect(error.message).toContain('Field "nope" does not exist');
  });

  it('maps undici timeouts and socket errors, noting when a request was never sent', () => {
    const timeout = errorFromException(
      Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
      'GET',
      base.url,
    );
    expect(timeout.code).toBe('upstream_timeout');
    expect(timeout.details?.['notSent']).toBe(false);
    const refused = errorFromException(
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      'DELETE',
      base.url,
    );
    expect(refused.code).toBe('upstream_network');
    expect(refused.details?.['notSent']).toBe(true);
    const reset = errorFromException(
      Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      'GET',
      base.url,
    );
    expect(reset.code).toBe('upstream_network');
    expect(reset.message).toContain(base.url);
  });
});
