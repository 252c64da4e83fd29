import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { type ChildBot, spawnBot } from '../support/child-bot.js';
import { DELIVERY_TOKEN } from '../support/discord-delivery.js';
import { APP_ID } from '../support/discord-interactions.js';
import { freePort } from '../support/free-port.js';
import { eventually } from '../support/polling.js';
import { startRedis } from '../support/private-redis.js';
import { programProblem, unavailable } from '../support/required-tools.js';
import { stopProcess } from '../support/stop-process.js';

/**
 * `directory-bot worker` with PORT set, as a Kubernetes, Fly or Render probe sees it: the compiled
 * worker on a private Redis answers /healthz and /metrics, /readyz 200 once it takes jobs, 503
 * while its Redis is gone and 200 again once it is back; it stops cleanly and is proven gone.
 * Without PORT (Heroku's worker dynos) it binds nothing.
 */

const missing = unavailable(
  'the worker probes test (a private redis-server)',
  programProblem('redis-server', ['--version'], 'apt-get install redis-server'),
);

let redis: ChildProcess | undefined;
let emulator: RunningEmulator | undefined;
let worker: ChildBot | undefined;
const discord = new FakeDiscordRest({ token: DELIVERY_TOKEN });
afterAll(async () => {
  if (worker?.child.exitCode === null && worker.child.signalCode === null)
    await worker.stop('SIGKILL').catch(() => {});
  await discord.close();
  await emulator?.close();
  if (redis) await stopProcess(redis, 'SIGTERM');
});

async function status(port: number, path: string): Promise<{ code: number; body: string }> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5000) });
    return { code: answer.status, body: await answer.text() };
  } catch {
    return { code: 0, body: '' };
  }
}

describe('a delivery worker’s probes (PORT set)', () => {
  it.skipIf(missing !== undefined)(
    'answers /healthz and /metrics, /readyz 200 once it takes jobs, 503 while Redis is lost and 200 once it is back; without PORT it binds nothing',
    async () => {
      const redisPort = await freePort();
      redis = await startRedis(redisPort);
      emulator = await startEmulator({ port: 0, seed: 27 });
      await discord.listen();
      const env = {
        DIRECTORY_BASE_URL: emulator.url,
        DIRECTORY_TOKEN: 'dev-token',
        STORE_URL: `redis://127.0.0.1:${redisPort}`,
        DISCORD_TOKEN: DELIVERY_TOKEN,
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_API_URL: discord.url,
        DISCORD_GATEWAY: 'false',
      };
      worker = spawnBot(['worker'], { ...env, PORT: '0', HOST: '127.0.0.1' });
      await worker.waitFor(/listening on http/, 10_000);
      const port = worker.port()!;
      expect((await status(port, '/healthz')).code).toBe(200);
      await eventually(async () => (await status(port, '/readyz')).code === 200, 10_000, '/readyz 200');
      expect(worker.output()).toMatch(/delivery worker ready/);
      expect((await status(port, '/metrics')).body).toContain('directory_bot_');
      // The web process's routes are not the worker's.
      expect((await status(port, '/slack/events')).code).toBe(404);

      // Redis lost: not ready. Back on the same port: ready again, without a restart.
      await stopProcess(redis, 'SIGTERM');
      await eventually(async () => (await status(port, '/readyz')).code === 503, 8_000, '/readyz 503');
      // The store's ping waits up to 2 s for an answer; the worker's own connections say at once.
      expect(JSON.parse((await status(port, '/readyz')).body)).toMatchObject({
        ready: false,
        checks: { 'delivery worker': expect.stringMatching(/^Redis/) },
      });
      redis = await startRedis(redisPort);
      await eventually(async () => (await status(port, '/readyz')).code === 200, 8_000, '/readyz 200 again');

      // pid gone and the port refusing connections.
      expect((await worker.stop('SIGTERM')).code).toBe(0);

      // Heroku's worker dynos: no PORT, nothing bound.
      worker = spawnBot(['worker'], env);
      await worker.waitFor(/delivery worker ready/, 10_000);
      expect(worker.output()).not.toContain('listening on');
      expect((await worker.stop('SIGTERM')).code).toBe(0);
    },
    30_000,
  );
});

describe('a delivery worker without PORT', () => {
  it('says in its usage that it binds nothing then', async () => {
    const help = spawnBot(['worker', '--help']);
    await help.exited;
    expect(help.output()).toContain('with PORT unset (Heroku');
  });
});
