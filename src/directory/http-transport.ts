import { setTimeout as delay } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { BotError, type BotErrorCode, isBotError } from '../errors.js';
import type { ConnectionTracker } from './connection-state.js';
import type { DirectoryEventSink } from './events.js';
import { type QuotaLedger, readRateLimitHeaders } from './quota-ledger.js';
import type { Priority, QuotaClass } from './types.js';
import { errorFromException, errorFromResponse, looksLikeHtml, parseJsonObject } from './upstream-errors.js';

/**
 * One HTTP exchange with the directory, the way every call must go: budget from the ledger
 * first, Bearer token and User-Agent, ledger updated from every response's headers,
 * failures mapped to BotErrors, transient read failures retried with jittered backoff.
 */

export interface RetryPolicy {
  /** Total attempts including the first (1 = no retries). */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 250, maxDelayMs: 5_000 };

export interface Timeouts {
  connectMs: number;
  /** Until the response headers arrive. */
  headersMs: number;
  /** Between two chunks of the body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 15_000, bodyMs: 15_000 };

export interface TransportOptions {
  baseUrl: string;
  token: string;
  userAgent: string;
  dispatcher: Dispatcher;
  ledger: QuotaLedger;
  clock: { now(): number };
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  retry: RetryPolicy;
  timeouts: Timeouts;
  onEvent: DirectoryEventSink;
  /** Told how each call ended, after its retries (calls given up on shutdown are not). */
  connection?: ConnectionTracker;
  /** Source of jitter; injectable so backoff is deterministic in tests. */
  random?: () => number;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  quotaClass: QuotaClass;
  /** Quota units this call spends (1, or a query's estimated complexity). */
  cost: number;
  /**
   * `read`: safe to repeat (GET, GraphQL queries), retried on network errors, timeouts and
   * 5xx. `write`: retried only when the request certainly never reached the service.
   */
  kind: 'read' | 'write';
  /** Sent as `If-None-Match`. */
  etag?: string;
  priority: Priority;
  signal?: AbortSignal;
  /**
   * Inspects a 2xx JSON body for errors the service reports with a 200 (GraphQL `errors`),
   * so they get the same rate-limit pause and retry treatment as HTTP errors.
   */
  inspect?: (json: Record<string, unknown>, status: number) => BotError | undefined;
}

export type TransportResponse =
  | { notModified: false; status: number; json: Record<string, unknown>; etag: string | undefined }
  | { notModified: true; status: 304 };

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** The URL a request would go to (also the ETag cache key). */
  urlFor(path: string, query?: TransportRequest['query']): string;
  close(): Promise<void>;
}

const RETRYABLE: ReadonlySet<BotErrorCode> = new Set([
  'upstream_network',
  'upstream_timeout',
  'upstream_unavailable',
]);

/** Builds the default dispatcher: one keep-alive Agent with connect/headers/body timeouts. */
export function createDefaultDispatcher(timeouts: Timeouts = DEFAULT_TIMEOUTS): Agent {
  return new Agent({
    keepAliveTimeout: 30_000,
    connections: 8,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
}

/** Creates the transport. It owns `dispatcher` only if `ownsDispatcher` is set. */
export function createTransport(options: TransportOptions, ownsDispatcher = false): Transport {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const random = options.random ?? Math.random;
  let closed = false;

  const urlFor = (path: string, query?: TransportRequest['query']): string => {
    const url = new URL(base.origin);
    url.pathname = `${basePath}${path}`;
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  };

  const backoffMs = (attempt: number): number => {
    // Full jitter: spreads retries of many clients (or feeds) instead of synchronising them.
    const ceiling = Math.min(options.retry.maxDelayMs, options.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(random() * ceiling);
  };

  const attemptOnce = async (
    request: TransportRequest,
    url: string,
    attempt: number,
  ): Promise<TransportResponse> => {
    const { method, quotaClass, cost, priority } = request;
    const route = request.path;
    await options.ledger.waitFor(quotaClass, cost, priority, {
      ...(request.signal ? { signal: request.signal } : {}),
      onWait: (waitMs) => options.onEvent({ type: 'quota-wait', quotaClass, waitMs, priority }),
    });
    const started = options.clock.now();
    const report = (status: number | undefined, errorCode?: BotErrorCode | 'aborted') =>
      options.onEvent({
        type: 'request',
        method,
        route,
        status,
        ms: options.clock.now() - started,
        quotaClass,
        cost,
        attempt,
        priority,
        ...(errorCode === 'aborted' ? { aborted: true } : errorCode ? { errorCode } : {}),
      });

    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${options.token}`,
      'user-agent': options.userAgent,
    };
    if (request.etag) headers['if-none-match'] = request.etag;
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }

    let status: number | undefined;
    try {
      const target = new URL(url);
      const response = await options.dispatcher.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method,
        headers,
        body: body ?? null,
        signal: request.signal ?? null,
        headersTimeout: options.timeouts.headersMs,
        bodyTimeout: options.timeouts.bodyMs,
      });
      status = response.statusCode;
      const rate = readRateLimitHeaders(response.headers);
      options.ledger.update(quotaClass, rate);
      if (status === 304) {
        await response.body.dump();
        report(status);
        options.onEvent({ type: 'not-modified', route });
        return { notModified: true, status: 304 };
      }
      const text = await response.body.text();
      const contentType = headerValue(response.headers['content-type']);
      if (status < 200 || status >= 300) {
        throw errorFromResponse({
          method,
          url,
          status,
          contentType,
          body: text,
          resetSeconds: rate.resetSeconds,
        });
      }
      const json = parseJsonObject(text, contentType);
      if (json === undefined) {
        const html = looksLikeHtml(text, contentType);
        throw new BotError(
          html ? 'upstream_unavailable' : 'upstream_bad_response',
          `${method} ${url} → ${status}: ${html ? 'an HTML page' : 'a body that is not a JSON object'} instead of JSON`,
          { method, url, status },
        );
      }
      const reported = request.inspect?.(json, status);
      if (reported) throw reported;
      report(status);
      return { notModified: false, status, json, etag: headerValue(response.headers['etag']) };
    } catch (error) {
      if (request.signal?.aborted) {
        // Given up by the caller (shutdown): says nothing about the directory.
        report(status, 'aborted');
        throw error;
      }
      const failure = isBotError(error) ? error : errorFromException(error, method, url);
      report(status, failure.code);
      if (failure.code === 'upstream_rate_limited') {
        options.ledger.pause(quotaClass, failure.retryAfterMs);
        options.onEvent({
          type: 'rate-limited',
          quotaClass,
          route,
          retryAfterMs: failure.retryAfterMs ?? 0,
        });
      }
      throw failure;
    }
  };

  const mayRetry = (request: TransportRequest, error: unknown): error is BotError => {
    if (!isBotError(error) || !RETRYABLE.has(error.code)) return false;
    if (request.kind === 'read') return true;
    // A write that may have reached the service is not repeated blindly.
    return error.details?.['notSent'] === true;
  };

  return {
    urlFor,
    async send(request) {
      const url = urlFor(request.path, request.query);
      const attempts = Math.max(1, options.retry.attempts);
      for (let attempt = 1; ; attempt += 1) {
        try {
          const response = await attemptOnce(request, url, attempt);
          options.connection?.settled(undefined);
          return response;
        } catch (error) {
          if (attempt >= attempts || !mayRetry(request, error)) {
            if (!request.signal?.aborted) options.connection?.settled(error);
            throw error;
          }
          const delayMs = backoffMs(attempt);
          options.onEvent({
            type: 'retry',
            method: request.method,
            route: request.path,
            attempt,
            delayMs,
            errorCode: error.code,
          });
          await options.sleep(delayMs, request.signal);
        }
      }
    },
    async close() {
      // Idempotent: shutdown paths may close a client more than once.
      if (!ownsDispatcher || closed) return;
      closed = true;
      await options.dispatcher.close();
    },
  };
}

/** The default sleep: a timer that honours the caller's AbortSignal. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : {});
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
