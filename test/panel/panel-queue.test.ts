import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelQueueDepth } from '../../src/app/panel-wiring.js';
import { DeliveryQueue } from '../../src/delivery/index.js';
import { storeBackends } from '../support/backends.js';
import { PanelClient } from '../support/panel-client.js';
import { type PanelHarness, startPanelHarness, TEAM } from '../support/panel-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { queuedEntry } from '../support/workspace-seed.js';

/**
 * The overview's "Queue" line counts the queue actually in use: with delivery workers on Redis,
 * their per-channel FIFOs (shared by every process), plus what the polling instance's outbox
 * holds before its hand-off; without workers, the outbox alone, on the polling instance only.
 */

const temp = makeTempDir();
const redisBackend = (await storeBackends(join(temp.path, 'unused.sqlite'))).find((b) => b.name === 'redis')!;
const ADMIN = { userId: 'UQUEUEADM1', teamId: TEAM, teamName: 'Panel Team', name: 'Quinn Queue' };

let redis: Redis | undefined;
const prefix = `panel-queue-${randomUUID()}`;
let isLeader = true;
let outboxSize = 2;
let t: PanelHarness;

beforeAll(async () => {
  if (!redisBackend.unavailable) redis = new Redis(redisBackend.url);
  const queue = redis && new DeliveryQueue(redis, `${prefix}:workers:q:dir0aaa`);
  // What the panel is wired with: the poller's outbox, and the workers' FIFOs when they deliver.
  t = await startPanelHarness({
    queueDepth: panelQueueDepth({
      leader: {
        get isLeader() {
          return isLeader;
        },
      } as never,
      outbox: { size: () => outboxSize } as never,
      handOff: queue === undefined ? undefined : { queue },
    }),
  });
  t.slack.addUser(ADMIN.userId, { is_admin: true });
  await queue?.append('slack:C0Q1', [
    queuedEntry('slack:C0Q1', 'post:1', TEAM),
    queuedEntry('slack:C0Q1', 'post:2', TEAM),
  ]);
  await queue?.append('slack:C0Q2', [queuedEntry('slack:C0Q2', 'post:1', TEAM)]);
});

afterAll(async () => {
  await t?.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  temp.cleanup();
});

async function queueLine(): Promise<string | undefined> {
  const client = new PanelClient();
  t.slack.oidc.signedIn = ADMIN;
  await client.follow(`${t.url}/signin/slack`);
  const overview = await client.send('GET', `${t.url}/`);
  return /<strong>Queue<\/strong>: ([^<]*)<\/li>/.exec(overview.body)?.[1];
}

describe('the control panel’s queue count', () => {
  it.skipIf(redisBackend.unavailable !== undefined)(
    'counts the delivery workers’ queues in Redis with the outbox, on any instance',
    async () => {
      isLeader = true;
      outboxSize = 2;
      expect(await queueLine()).toBe('5 messages waiting to be posted');
      // Another instance: the outbox is not its own, but the workers' queues are everyone's.
      isLeader = false;
      expect(await queueLine()).toBe('3 messages waiting to be posted');
    },
  );
});

describe('the control panel’s queue count without delivery workers', () => {
  it('is the polling instance’s outbox, and unknown elsewhere', async () => {
    const depth = panelQueueDepth({
      leader: { isLeader: true } as never,
      outbox: { size: () => 1 } as never,
    });
    expect(await depth()).toBe(1);
    expect(
      await panelQueueDepth({ leader: { isLeader: false } as never, outbox: { size: () => 1 } as never })(),
    ).toBeUndefined();
  });
});
