import { connect } from 'node:net';
import { reportSkip } from './required-tools.js';

export interface Backend {
  name: 'sqlite' | 'redis' | 'postgres';
  url: string;
  /** Why the backend cannot be used here; undefined when it can. */
  unavailable?: string;
}

function reachable(url: string): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.end();
      resolve(undefined);
    });
    socket.setTimeout(1500, () => {
      socket.destroy();
      resolve(`${hostname}:${port} did not answer`);
    });
    socket.on('error', (error) => resolve(`${hostname}:${port}: ${error.message}`));
  });
}

/**
 * The three store backends. Redis and PostgreSQL come from TEST_REDIS_URL / TEST_DATABASE_URL
 * (CI starts the servers). Off CI an unreachable server skips its suite with the reason;
 * in CI it is a failure, so a missing server can never pass silently.
 */
export async function storeBackends(sqlitePath: string): Promise<Backend[]> {
  const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const postgresUrl = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const [redisProblem, postgresProblem] = await Promise.all([reachable(redisUrl), reachable(postgresUrl)]);
  const backends: Backend[] = [
    { name: 'sqlite', url: `sqlite://${sqlitePath}` },
    { name: 'redis', url: redisUrl, ...(redisProblem ? { unavailable: redisProblem } : {}) },
    { name: 'postgres', url: postgresUrl, ...(postgresProblem ? { unavailable: postgresProblem } : {}) },
  ];
  for (const backend of backends)
    if (backend.unavailable) reportSkip(`the ${backend.name} store suite`, backend.unavailable);
  return backends;
}
