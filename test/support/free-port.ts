import { createServer } from 'node:net';

/**
 * A TCP port nothing listens on right now. Bound on every interface, as the bot binds: a port
 * free only on 127.0.0.1 may be taken on ::.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
