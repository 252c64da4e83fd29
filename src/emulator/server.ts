import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GraphQLSchema } from 'graphql';
import type { ActivitySimulator } from './activity.js';
import type { EmulatorAdmin } from './admin.js';
import { handleAdmin } from './admin-routes.js';
import { ApiError, notFound } from './api-error.js';
import type { Clock } from './clock.js';
import { breakFirstRecord, type Fault, type FaultQueue, HTML_ERROR_PAGE } from './faults.js';
import { etagFor, etagMatches, type Outgoing, send } from './http-send.js';
import type { QuotaClass, QuotaSnapshot, Quotas } from './quotas.js';
import type { RequestStats } from './stats.js';
import type { Store } from './store.js';
import { listCollections } from './v1-collections.js';
import { listComments } from './v1-comments.js';
import { listLiveEvents } from './v1-live.js';
import { clearNotifications, listNotifications } from './v1-notifications.js';
import { V1Params } from './v1-params.js';
import type { V1Handler } from './v1-route.js';
import { runGraphql } from './v2-graphql.js';

const V1_ROUTES: Record<string, V1Handler> = {
  'GET /v1/collections': listCollections,
  'GET /v1/comments': listComments,
  'GET /v1/live': listLiveEvents,
  'GET /v1/notifications': listNotifications,
  'DELETE /v1/notifications': clearNotifications,
};
const GRAPHQL_PATH = '/v2/api/graphql';
const TOKEN_PATH = '/v2/oauth/token';
const MAX_BODY_BYTES = 1_000_000;
const MAX_CACHED_RESPONSES = 2000;

export interface ServerDeps {
  store: Store;
  clock: Clock;
  quotas: Quotas;
  faults: FaultQueue;
  stats: RequestStats;
  activity: ActivitySimulator;
  admin: EmulatorAdmin;
  schema: GraphQLSchema;
  tokens: ReadonlySet<string>;
  quirks: boolean;
  maxComplexity: number;
  /** The offset V1 shows timestamps in and reads dates in. */
  v1OffsetMinutes: number;
}

/** Spec 9: the GraphQL route spends complexity, other /v2 routes requests, everything else V1. */
function quotaClass(path: string): QuotaClass {
  if (path === GRAPHQL_PATH) return 'complexity';
  return path.startsWith('/v2/') ? 'v2Requests' : 'v1';
}

function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'payload_too_large', 'Request body is over 1 MB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Per-request choices: quirks mode, and post-processing faults. */
interface Shaping {
  quirks: boolean;
  malformed: boolean;
  badRecord: boolean;
}

/**
 * The emulator's request handler: admin API, faults, authentication, quotas, then V1 or V2.
 * Every answer goes through `send`, so every response carries the standard headers.
 */
export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { store, clock, quotas, faults, stats, activity } = deps;
  const cache = new Map<string, { bytes: Buffer; etag: string }>();
  let cacheVersion = -1;

  const headerQuota = (token: string | undefined, cls: QuotaClass, quirks: boolean): QuotaSnapshot => {
    const snapshot = quotas.snapshot(token, cls);
    // The live service has shown negative remaining values; only quirks mode shows them.
    return quirks ? snapshot : { ...snapshot, remaining: Math.max(0, snapshot.remaining) };
  };

  const errorBody = (error: ApiError, path: string, quirks: boolean): string => {
    // V2's auth and rate-limit errors come wrapped in a non-standard `errors` list on the live service.
    if (quirks && path.startsWith('/v2/') && (error.status === 401 || error.status === 429)) {
      return JSON.stringify({ data: null, errors: [error.toBody()] });
    }
    return JSON.stringify(error.toBody());
  };

  const rateLimited = (token: string, cls: QuotaClass, quirks: boolean): ApiError => {
    const { limit, remaining, resetSeconds } = headerQuota(token, cls, quirks);
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
  };

  const injectedStatus = (fault: Fault, token: string | undefined, cls: QuotaClass): ApiError => {
    const status = fault.status ?? 503;
    if (status === 429 && token !== undefined) return rateLimited(token, cls, false);
    const codes: Record<number, string> = {
      400: 'invalid_parameter',
      401: 'unauthorized_oauth',
      404: 'not_found',
    };
    return new ApiError(status, codes[status] ?? 'server_error', `Injected fault: HTTP ${status}`);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const path = url.pathname;

    if (path === '/__admin' || path.startsWith('/__admin/')) {
      const text = method === 'GET' || method === 'HEAD' ? '' : await readBody(req);
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          body = parsed as Record<string, unknown>;
      } catch {
        send(
          res,
          {
            status: 400,
            body: JSON.stringify({ error: 'invalid_parameter', error_description: 'body is not JSON' }),
          },
          quotas.snapshot(undefined, 'v1'),
        );
        return;
      }
      const answer = handleAdmin(
        method,
        path.endsWith('/') && path.length > 9 ? path.slice(0, -1) : path,
        body,
        deps.admin,
        clock,
      );
      send(
        res,
        { status: answer.status, body: JSON.stringify(answer.body) },
        quotas.snapshot(undefined, 'v1'),
      );
      return;
    }

    activity.catchUp();
    const cls = quotaClass(path);
    const presented = bearerToken(req);
    const token = presented !== undefined && deps.tokens.has(presented) ? presented : undefined;
    const shaping: Shaping = { quirks: deps.quirks, malformed: false, badRecord: false };
    const reply = (outgoing: Outgoing): void => {
      stats.record(path, outgoing.status);
      send(res, outgoing, headerQuota(token, cls, shaping.quirks));
    };
    const fail = (error: ApiError): void =>
      reply({ status: error.status, body: errorBody(error, path, shaping.quirks) });

    const fault = faults.take(path);
    if (fault) {
      switch (fault.kind) {
        case 'drop':
          stats.record(path, 0);
          req.socket.destroy();
          return;
        case 'status':
          fail(injectedStatus(fault, token, cls));
          return;
        case 'html':
          reply({
            status: fault.status ?? 503,
            body: HTML_ERROR_PAGE,
            contentType: 'text/html; charset=utf-8',
          });
          return;
        case 'delay':
          await sleep(fault.delayMs ?? 1000);
          break;
        case 'quirks':
          shaping.quirks = true;
          break;
        case 'malformed-json':
          shaping.malformed = true;
          break;
        case 'bad-record':
          shaping.badRecord = true;
          break;
      }
    }

    const routeKey = `${method} ${path}`;
    const v1 = V1_ROUTES[routeKey];
    const known = v1 !== undefined || routeKey === `POST ${GRAPHQL_PATH}` || routeKey === `GET ${TOKEN_PATH}`;
    if (!known) {
      fail(notFound(`${method} ${path}`));
      return;
    }
    if (token === undefined) {
      fail(
        new ApiError(
          401,
          'unauthorized_oauth',
          presented === undefined
            ? 'Please supply a valid access token: Authorization: Bearer <token>'
            : 'The access token is unknown, revoked or expired',
        ),
      );
      return;
    }
    if (quotas.exhausted(token, cls)) {
      fail(rateLimited(token, cls, shaping.quirks));
      return;
    }
    const viewerId = store.viewerId(token) ?? 0;
    const finish = (status: number, value: unknown, etag?: string): void => {
      if (shaping.badRecord) breakFirstRecord(value);
      let text = JSON.stringify(value);
      if (shaping.malformed) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
      reply(etag === undefined ? { status, body: text } : { status, body: text, etag });
    };

    if (v1) {
      quotas.charge(token, 'v1', 1);
      try {
        if (method === 'GET' && !shaping.badRecord && !shaping.malformed) {
          const cached = cachedV1(routeKey, url, viewerId, shaping.quirks, v1);
          if (etagMatches(req.headers['if-none-match'], cached.etag)) {
            reply({ status: 304, etag: cached.etag });
            return;
          }
          reply({ status: 200, body: cached.bytes, etag: cached.etag });
          return;
        }
        const result = v1({
          params: new V1Params(url.searchParams, deps.v1OffsetMinutes),
          store,
          ctx: { quirks: shaping.quirks, viewerId, offsetMinutes: deps.v1OffsetMinutes },
        });
        finish(200, result.body, etagFor(JSON.stringify(result.body), result.etag));
      } catch (error) {
        if (error instanceof ApiError) fail(error);
        else throw error;
      }
      return;
    }

    if (path === TOKEN_PATH) {
      quotas.charge(token, 'v2Requests', 1);
      finish(200, { posts: [] });
      return;
    }

    const raw = await readBody(req);
    const outcome = await runGraphql(
      raw,
      deps.schema,
      { store, viewerId, quirks: shaping.quirks, now: clock.now() },
      deps.maxComplexity,
    );
    quotas.charge(token, 'complexity', outcome.charge);
    finish(outcome.status, outcome.body);
  }

  /** V1 reads are cached per store version: ETags stay stable and the benchmark measures serving. */
  function cachedV1(routeKey: string, url: URL, viewerId: number, quirks: boolean, handler: V1Handler) {
    if (cacheVersion !== store.version || cache.size > MAX_CACHED_RESPONSES) {
      cache.clear();
      cacheVersion = store.version;
    }
    const key = `${routeKey}?${url.searchParams.toString()}|${viewerId}|${quirks}`;
    let entry = cache.get(key);
    if (!entry) {
      const result = handler({
        params: new V1Params(url.searchParams, deps.v1OffsetMinutes),
        store,
        ctx: { quirks, viewerId, offsetMinutes: deps.v1OffsetMinutes },
      });
      // Kept encoded: re-encoding a 50-comment page costs more than serving it.
      const bytes = Buffer.from(JSON.stringify(result.body), 'utf8');
      entry = { bytes, etag: etagFor(bytes, result.etag) };
      cache.set(key, entry);
    }
    return entry;
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, 'server_error', 'The emulator failed to answer');
      send(
        res,
        { status: apiError.status, body: JSON.stringify(apiError.toBody()) },
        quotas.snapshot(undefined, 'v1'),
      );
    });
  };
}
