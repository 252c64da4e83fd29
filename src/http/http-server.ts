import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { HttpHandler, HttpMount } from '../ports/chat-adapter.js';
import type { Logger } from '../ports/logger.js';

export interface ReadinessCheck {
  name: string;
  /** Resolves with a reason when not ready, undefined when ready. */
  check(): Promise<string | undefined>;
}

export interface BotHttpServer extends HttpMount {
  readonly server: Server;
  listen(port: number, host?: string): Promise<number>;
  addReadinessCheck(check: ReadinessCheck): void;
  /** Stop accepting connections; in-flight requests finish. */
  close(): Promise<void>;
}

/**
 * The bot's one HTTP server: liveness, readiness and metrics are ours; adapters mount their
 * routes (Slack events, Discord interactions) under their own prefixes.
 */
export function createHttpServer(options: { logger: Logger; registry: Registry }): BotHttpServer {
  const mounts: { prefix: string; handler: HttpHandler }[] = [];
  const checks: ReadinessCheck[] = [];
  const { logger, registry } = options;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, 'text/plain', 'ok\n');
    if (req.method === 'GET' && path === '/readyz') return readiness(res);
    if (req.method === 'GET' && path === '/metrics') {
      return send(res, 200, registry.contentType, await registry.metrics());
    }
    if (req.method === 'GET' && path === '/') {
      return send(res, 200, 'text/plain', 'Directory Bot is running. See /healthz, /readyz and /metrics.\n');
    }
    const mount = mounts.find((m) => path.startsWith(m.prefix));
    if (mount) return mount.handler(req, res);
    send(res, 404, 'text/plain', 'not found\n');
  };

  const readiness = async (res: ServerResponse) => {
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          return { name: c.name, reason: await c.check() };
        } catch (error) {
          return { name: c.name, reason: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
    const failing = results.filter((r) => r.reason !== undefined);
    const body = JSON.stringify({
      ready: failing.length === 0,
      checks: Object.fromEntries(results.map((r) => [r.name, r.reason ?? 'ok'])),
    });
    send(res, failing.length === 0 ? 200 : 503, 'application/json', `${body}\n`);
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
    listen(port, host) {
      return new Promise((resolvePort, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolvePort((server.address() as AddressInfo).port);
        });
      });
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
