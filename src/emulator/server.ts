import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActivitySimulator } from './activity.js';
import type { EmulatorAdmin } from './admin.js';
import { isAdminPath, serveAdmin } from './admin-routes.js';
import {
  errorBody,
  injectedStatusError,
  rateLimitError,
  unauthorizedError,
  visibleQuota,
} from './api-answers.js';
import { ApiError, notFound } from './api-error.js';
import {
  type ApiExchange,
  type ApiRouteDeps,
  createApiRoutes,
  findApiRoute,
  quotaClass,
  type Shaping,
} from './api-routes.js';
import { breakFirstRecord, type FaultQueue, HTML_ERROR_PAGE } from './faults.js';
import { etagFor, type Outgoing, send } from './http-send.js';
import type { RequestStats } from './stats.js';

export interface ServerDeps extends ApiRouteDeps {
  faults: FaultQueue;
  stats: RequestStats;
  activity: ActivitySimulator;
  admin: EmulatorAdmin;
  tokens: ReadonlySet<string>;
  quirks: boolean;
}

function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/**
 * The emulator's request handler: admin API, faults, authentication, quotas, then the API route
 * (api-routes.ts) that matches. Every answer goes through `send`, so every response carries the
 * standard headers.
 */
export function createRequestHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { store, quotas, faults, stats, activity } = deps;
  const routes = createApiRoutes(deps);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const path = url.pathname;

    if (isAdminPath(path)) {
      await serveAdmin(req, res, deps);
      return;
    }

    activity.catchUp();
    const cls = quotaClass(path);
    const presented = bearerToken(req);
    const token = presented !== undefined && deps.tokens.has(presented) ? presented : undefined;
    const shaping: Shaping = { quirks: deps.quirks, malformed: false, badRecord: false };
    const reply = (outgoing: Outgoing): void => {
      stats.record(path, outgoing.status);
      send(res, outgoing, visibleQuota(quotas, token, cls, shaping.quirks));
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
          fail(
            injectedStatusError(
              fault,
              token === undefined ? undefined : () => visibleQuota(quotas, token, cls, false),
            ),
          );
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

    const route = findApiRoute(routes, method, path);
    if (!route) {
      fail(notFound(`${method} ${path}`));
      return;
    }
    if (token === undefined) {
      fail(unauthorizedError(presented));
      return;
    }
    if (quotas.exhausted(token, cls)) {
      fail(rateLimitError(visibleQuota(quotas, token, cls, shaping.quirks)));
      return;
    }
    const exchange: ApiExchange = {
      req,
      method,
      url,
      token,
      viewerId: store.viewerId(token) ?? 0,
      shaping,
      reply,
      fail,
      finish(status, value, etag) {
        if (shaping.badRecord) breakFirstRecord(value);
        let text = JSON.stringify(value);
        if (shaping.malformed) text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
        // Tagged after the faults: the ETag names the bytes sent, so a client that caches a
        // broken answer never gets a 304 for the intact one.
        reply(
          etag === undefined ? { status, body: text } : { status, body: text, etag: etagFor(text, etag) },
        );
      },
    };
    await route.handle(exchange);
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
