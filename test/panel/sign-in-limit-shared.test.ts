import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSignInLimitStore } from '../../src/app/panel-wiring.js';
import type { PanelOptions } from '../../src/panel/index.js';
import { storeBackends } from '../support/backends.js';
import { PanelClient } from '../support/panel-client.js';
import { type PanelHarness, startPanelHarness, unique } from '../support/panel-harness.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * The sign-in limit across web processes: two panels on two HTTP servers stand for two web dynos.
 * Counted in Redis (as the app wires it on a Redis store) they share one allowance per address;
 * counted in each process's memory, each gives the whole allowance again.
 */

const temp = makeTempDir();
const redisBackend = (await storeBackends(join(temp.path, 'unused.sqlite'))).find((b) => b.name === 'redis')!;
const LIMIT = { limit: 3, windowMs: 60_000 };
const ADDRESS = '203.0.113.21';

const opened: { close(): void | Promise<void> }[] = [];
const namespaces: string[] = [];
afterEach(async () => {
  for (const one of opened.splice(0)) await one.close();
});
afterAll(async () => {
  // Every key these tests wrote (each test has its own namespace).
  if (redisBackend.unavailable === undefined && namespaces.length > 0) {
    const redis = new Redis(redisBackend.url);
    for (const namespace of namespaces) {
      const keys = await redis.keys(`${namespace}:*`);
      if (keys.length > 0) await redis.unlink(...keys);
    }
    redis.disconnect();
  }
  temp.cleanup();
});

async function panel(options: Partial<PanelOptions>): Promise<PanelHarness> {
  const started = await startPanelHarness({ signInLimit: LIMIT, ...options });
  opened.push(started);
  return started;
}

/** Two sign-in attempts from one address on `a`, then two on `b`: the four answers. */
async function splitAttempts(a: PanelHarness, b: PanelHarness) {
  const client = new PanelClient();
  // The loopback proxy is trusted: this is the address both panels count.
  client.headers = { 'x-forwarded-for': ADDRESS };
  const answers = [];
  for (const url of [a.url, a.url, b.url, b.url]) answers.push(await client.get(`${url}/signin/slack`));
  return answers;
}

describe('the sign-in limit across web processes', () => {
  it.skipIf(redisBackend.unavailable !== undefined)(
    'is shared through Redis: 2 attempts on one panel and 2 on another make the 4th too many of 3',
    async () => {
      const namespace = `test-${unique()}`;
      namespaces.push(namespace);
      // One connection and store per panel, as each web process opens its own.
      const limitA = openSignInLimitStore(redisBackend.url, namespace);
      const limitB = openSignInLimitStore(redisBackend.url, namespace);
      opened.push(limitA, limitB);
      const a = await panel({ signInLimitStore: limitA.store });
      const b = await panel({ signInLimitStore: limitB.store });

      const answers = await splitAttempts(a, b);
      expect(answers.map((x) => x.status)).toEqual([303, 303, 303, 429]);
      expect(answers[3]?.body).toContain('Too many sign-in attempts');

      // The count is kept under the address, and lives no longer than the window.
      const redis = new Redis(redisBackend.url);
      try {
        const key = `${namespace}:panel:signin-limit:${ADDRESS}`;
        expect(await redis.get(key)).toBe('4');
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(LIMIT.windowMs);
      } finally {
        redis.disconnect();
      }
    },
  );

  it("is per process in memory: the same split on two panels is within each one's 3", async () => {
    const a = await panel({});
    const b = await panel({});
    const answers = await splitAttempts(a, b);
    expect(answers.map((x) => x.status)).toEqual([303, 303, 303, 303]);
  });
});
