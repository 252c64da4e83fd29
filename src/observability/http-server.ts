import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { BotError, messageOf } from '../errors.js';
import type { HttpHandler, HttpMount, Logger } from '../ports/index.js';

export interface ReadinessCheck {
  name: string;
  /** Resolves with a reason when not ready, undefined when ready. */
  check(): Promise<string | undefined>;
}

/**
 * Something the bot runs without, but not well: answered in `/readyz`'s `degraded` and
 * `degradations` while the bot stays ready (it keeps answering commands and platforms).
 */
export interface DegradationCheck {
  name: string;
  /** Resolves with what is wrong, undefined when nothing is. */
  check(): Promise<string | undefined>;
}

export interface BotHttpServer extends HttpMount {
  readonly server: Server;
  /**
   * Binds `port` on `host`, or on every interface when `host` is omitted. Rejects with a
   * `port_in_use` BotError when another process holds the port.
   */
  listen(port: number, host?: string): Promise<number>;
  /** Where the server is bound, once it is. */
  address(): AddressInfo | undefined;
  addReadinessCheck(check: ReadinessCheck): void;
  addDegradationCheck(check: DegradationCheck): void;
  /** Stop accepting connections; in-flight requests finish. */
  close(): Promise<void>;
}

/**
 * The bot's one HTTP server: liveness, readiness and metrics are ours; adapters mount their
 * routes (Slack events, Discord interactions) under their own prefixes.
 */
/**
 * How long `/readyz` waits for one check. A check that reads a store that stopped answering would
 * otherwise hold the probe open until the prober gives up, and an orchestrator then sees a timeout
 * rather than the reason; past this the check reads as not answering.
 */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export function createHttpServer(options: {
  logger: Logger;
  registry: Registry;
  /** Default `READINESS_CHECK_TIMEOUT_MS`. */
  checkTimeoutMs?: number;
}): BotHttpServer {
  const mounts: { prefix: string; handler: HttpHandler }[] = [];
  const checks: ReadinessCheck[] = [];
  const degradations: DegradationCheck[] = [];
  const { logger, registry } = options;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, 'text/plain', 'ok\n');
    if (req.method === 'GET' && path === '/readyz')
      return readiness(res, new URL(req.url ?? '/', 'http://localhost'));
    if (req.method === 'GET' && path === '/metrics') {
      return send(res, 200, registry.contentType, await registry.metrics());
    }
    // The control panel, when there is one, is mounted at `/` and answers every other path.
    const mount = mounts.find((m) => path.startsWith(m.prefix));
    if (mount) return mount.handler(req, res);
    if (req.method === 'GET' && path === '/') {
      return send(
        res,
        200,
        'text/plain',
        'Directory Bot is running. See /healthz, /readyz and /metrics. The control panel is off: set PANEL_URL (docs/panel.md).\n',
      );
    }
    send(res, 404, 'text/plain', 'not found\n');
  };

  /**
   * `ready` decides the status (503 until every adapter and worker is ready). `degraded` says
   * the bot runs without something it needs to do its job well (a directory that refuses the
   * token or does not answer): it stays ready, since commands and platforms are still served, and
   * a health check that reads the body sees it; `?strict` makes it a 503 too, for checks that
   * read only the status.
   */
  const readiness = async (res: ServerResponse, url: URL) => {
    const limitMs = options.checkTimeoutMs ?? READINESS_CHECK_TIMEOUT_MS;
    const run = (list: readonly (ReadinessCheck | DegradationCheck)[]) =>
      Promise.all(
        list.map(async (c) => {
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<string>((resolve) => {
            timer = setTimeout(() => resolve(`no answer within ${limitMs} ms`), limitMs);
          });
          try {
            return { name: c.name, reason: await Promise.race([c.check(), late]) };
          } catch (error) {
            return { name: c.name, reason: messageOf(error) };
          } finally {
            clearTimeout(timer);
          }
        }),
      );
    const [results, degradedResults] = await Promise.all([run(checks), run(degradations)]);
    const failing = results.filter((r) => r.reason !== undefined);
    const degraded = degradedResults.filter((r) => r.reason !== undefined);
    const body = JSON.stringify({
      ready: failing.length === 0,
      degraded: degraded.length > 0,
      checks: Object.fromEntries(results.map((r) => [r.name, r.reason ?? 'ok'])),
      degradations: Object.fromEntries(degraded.map((r) => [r.name, r.reason])),
    });
    const strict = url.searchParams.has('strict');
    const ok = failing.length === 0 && !(strict && degraded.length > 0);
    send(res, ok ? 200 : 503, 'application/json', `${body}\n`);
  };

  const server = createServer((req, res) => {
    Promise.resolve(handle(req, res)).catch((error: unknown) => {
      logger.error({ err: error, path: req.url }, 'HTTP handler failed');
      if (!res.headersSent) send(res, 500, 'text/plain', 'internal error\n');
      else res.end();
    });
  });
  // Heroku's router holds idle connections for 55 s; keep ours open a little longer.
  server.keepAliveTimeout = 65_000;

  return {
    server,
    mount(prefix, handler) {
      mounts.push({ prefix, handler });
      mounts.sort((a, b) => b.prefix.length - a.prefix.length);
    },
    addReadinessCheck(check) {
      checks.push(check);
    },
    addDegradationCheck(check) {
      degradations.push(check);
    },
    listen(port, host) {
      return new Promise((resolvePort, reject) => {
        const failed = (error: NodeJS.ErrnoException) => {
          reject(
            error.code === 'EADDRINUSE'
              ? new BotError('port_in_use', `port ${port} is already in use`, {
                  cause: error,
                  details: { port },
                })
              : error,
          );
        };
        server.once('error', failed);
        server.listen(port, host, () => {
          server.off('error', failed);
          resolvePort((server.address() as AddressInfo).port);
        });
      });
    },
    address() {
      const bound = server.address();
      return bound !== null && typeof bound === 'object' ? bound : undefined;
    },
    close() {
      return new Promise((resolveClose) => {
        server.close(() => resolveClose());
        server.closeIdleConnections();
      });
    },
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The "listening on" text for the address actually bound: with no host, Node binds `::` (every
 * interface, IPv4 too) or `0.0.0.0` where IPv6 is off, and the log must not pretend otherwise.
 */
export function describeListening(bound: AddressInfo): string {
  const endpoints = '(GET /healthz, /readyz, /metrics)';
  if (bound.address === '::') return `listening on http://[::]:${bound.port}, every interface ${endpoints}`;
  if (bound.address === '0.0.0.0')
    return `listening on http://0.0.0.0:${bound.port}, every IPv4 interface ${endpoints}`;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return `listening on http://${host}:${bound.port} ${endpoints}`;
}
