import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandler, HttpMount } from '../../src/ports/index.js';

/** A stand-in for the bot's own HTTP server: routes by path prefix exactly as `HttpMount` promises. */
export interface MountServer {
  http: HttpMount;
  url: string;
  close(): Promise<void>;
}

export async function startMountServer(): Promise<MountServer> {
  const mounts: { prefix: string; handler: HttpHandler }[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const mount = mounts.find((m) => path.startsWith(m.prefix));
    if (mount === undefined) {
      res.writeHead(404).end();
      return;
    }
    // A handler that throws answers 500, as the bot's own server does, instead of hanging.
    void Promise.resolve(mount.handler(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    http: { mount: (prefix, handler) => mounts.push({ prefix, handler }) },
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
