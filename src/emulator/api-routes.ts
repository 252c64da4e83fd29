import type { IncomingMessage } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { ApiError } from './api-error.js';
import type { Clock } from './clock.js';
import { readBody } from './http-body.js';
import { etagFor, etagMatches, type Outgoing } from './http-send.js';
import type { QuotaClass, Quotas } from './quotas.js';
import type { Store } from './store.js';
import { listCollections } from './v1-collections.js';
import { listComments } from './v1-comments.js';
import { listLiveEvents } from './v1-live.js';
import { clearNotifications, listNotifications } from './v1-notifications.js';
import { V1Params } from './v1-params.js';
import type { V1Handler } from './v1-route.js';
import type { V2Context } from './v2-context.js';
import { createQueryPreparer } from './v2-documents.js';
import { runGraphql } from './v2-graphql.js';
import { VersionedCache } from './versioned-cache.js';

const GRAPHQL_PATH = '/v2/api/graphql';
const TOKEN_PATH = '/v2/oauth/token';
const MAX_CACHED_RESPONSES = 2000;

/** Per-request choices: quirks mode, and post-processing faults. */
export interface Shaping {
  quirks: boolean;
  malformed: boolean;
  badRecord: boolean;
}

/** An API request that got past faults, authentication and the quota check, and how to answer it. */
export interface ApiExchange {
  req: IncomingMessage;
  method: string;
  url: URL;
  token: string;
  viewerId: number;
  shaping: Shaping;
  /** Sends an answer as it is. */
  reply(outgoing: Outgoing): void;
  /** Sends an error answer. */
  fail(error: ApiError): void;
  /** Sends a JSON value, broken as the request's faults say, with an ETag of that strength over what is sent. */
  finish(status: number, value: unknown, etag?: 'strong' | 'weak'): void;
}

/** One API endpoint: an exact method and path, and what answers it. */
export interface ApiRoute {
  method: string;
  path: string;
  handle(exchange: ApiExchange): void | Promise<void>;
}

export interface ApiRouteDeps {
  store: Store;
  clock: Clock;
  quotas: Quotas;
  schema: GraphQLSchema;
  maxComplexity: number;
  /** The offset V1 shows timestamps in and reads dates in. */
  v1OffsetMinutes: number;
}

/** The API endpoints, one row each; a request matching none answers 404. */
export function createApiRoutes(deps: ApiRouteDeps): readonly ApiRoute[] {
  const v1 = createV1Serving(deps);
  return [
    { method: 'GET', path: '/v1/collections', handle: v1(listCollections) },
    { method: 'GET', path: '/v1/comments', handle: v1(listComments) },
    { method: 'GET', path: '/v1/live', handle: v1(listLiveEvents) },
    { method: 'GET', path: '/v1/notifications', handle: v1(listNotifications) },
    { method: 'DELETE', path: '/v1/notifications', handle: v1(clearNotifications) },
    { method: 'POST', path: GRAPHQL_PATH, handle: serveGraphql(deps) },
    { method: 'GET', path: TOKEN_PATH, handle: serveToken(deps) },
  ];
}

/** Spec 9: the GraphQL route spends complexity, other /v2 routes requests, everything else V1. */
export function quotaClass(path: string): QuotaClass {
  if (path === GRAPHQL_PATH) return 'complexity';
  return path.startsWith('/v2/') ? 'v2Requests' : 'v1';
}

/** The route for a method and path, if there is one. */
export function findApiRoute(
  routes: readonly ApiRoute[],
  method: string,
  path: string,
): ApiRoute | undefined {
  return routes.find((route) => route.method === method && route.path === path);
}

/** V1 endpoints: one request of the V1 budget each, GET answers cached with ETags and 304s. */
function createV1Serving(deps: ApiRouteDeps): (handler: V1Handler) => ApiRoute['handle'] {
  const { store, quotas } = deps;
  const cache = new VersionedCache<{ bytes: Buffer; etag: string }>(
    () => store.version,
    MAX_CACHED_RESPONSES,
  );
  const run = (handler: V1Handler, url: URL, viewerId: number, quirks: boolean) =>
    handler({
      params: new V1Params(url.searchParams, deps.v1OffsetMinutes),
      store,
      ctx: { quirks, viewerId, offsetMinutes: deps.v1OffsetMinutes },
    });

  /**
   * V1 reads are serialised and tagged once per store version, keyed by the request line as
   * sent: ETags stay stable and a repeated poll costs a lookup, not a render and a SHA-1.
   */
  function cached(rawUrl: string, url: URL, viewerId: number, quirks: boolean, handler: V1Handler) {
    const key = `${rawUrl}|${viewerId}|${quirks}`;
    let entry = cache.get(key);
    if (!entry) {
      const result = run(handler, url, viewerId, quirks);
      // Kept encoded: re-encoding a 50-comment page costs more than serving it.
      const bytes = Buffer.from(JSON.stringify(result.body), 'utf8');
      entry = { bytes, etag: etagFor(bytes, result.etag) };
      cache.set(key, entry);
    }
    return entry;
  }

  return (handler) => (exchange) => {
    const { method, url, viewerId, shaping } = exchange;
    quotas.charge(exchange.token, 'v1', 1);
    try {
      if (method === 'GET' && !shaping.badRecord && !shaping.malformed) {
        const entry = cached(exchange.req.url ?? '', url, viewerId, shaping.quirks, handler);
        if (etagMatches(exchange.req.headers['if-none-match'], entry.etag)) {
          exchange.reply({ status: 304, etag: entry.etag });
          return;
        }
        exchange.reply({ status: 200, body: entry.bytes, etag: entry.etag });
        return;
      }
      const result = run(handler, url, viewerId, shaping.quirks);
      exchange.finish(200, result.body, result.etag);
    } catch (error) {
      if (error instanceof ApiError) exchange.fail(error);
      else throw error;
    }
  };
}

/**
 * The V2 GraphQL endpoint: charged the query's complexity on every request. Query texts are
 * parsed and validated once; a whole answer is kept, encoded, for the same body, viewer and
 * mode while the store is unchanged, unless it read the clock (the default RANKING order
 * decays votes by age) or a fault is to break it.
 */
function serveGraphql(deps: ApiRouteDeps): ApiRoute['handle'] {
  const queries = createQueryPreparer(deps.schema);
  const answers = new VersionedCache<{ status: number; bytes: Buffer; charge: number }>(
    () => deps.store.version,
    MAX_CACHED_RESPONSES,
  );
  return async ({ req, token, viewerId, shaping, finish, reply }) => {
    const raw = await readBody(req);
    const key = `${viewerId}|${shaping.quirks}|${raw}`;
    const plain = !shaping.badRecord && !shaping.malformed;
    const hit = plain ? answers.get(key) : undefined;
    if (hit) {
      deps.quotas.charge(token, 'complexity', hit.charge);
      reply({ status: hit.status, body: hit.bytes });
      return;
    }
    let readClock = false;
    const now = deps.clock.now();
    const context: V2Context = {
      store: deps.store,
      viewerId,
      quirks: shaping.quirks,
      get now() {
        readClock = true;
        return now;
      },
    };
    const outcome = await runGraphql(raw, queries, context, deps.maxComplexity);
    deps.quotas.charge(token, 'complexity', outcome.charge);
    if (!plain || readClock) {
      finish(outcome.status, outcome.body);
      return;
    }
    const bytes = Buffer.from(JSON.stringify(outcome.body), 'utf8');
    answers.set(key, { status: outcome.status, bytes, charge: outcome.charge });
    reply({ status: outcome.status, body: bytes });
  };
}

/** The V2 token path: one request of the V2 budget, answered with a fixed `{posts: []}`. */
function serveToken(deps: ApiRouteDeps): ApiRoute['handle'] {
  return ({ token, finish }) => {
    deps.quotas.charge(token, 'v2Requests', 1);
    finish(200, { posts: [] });
  };
}
