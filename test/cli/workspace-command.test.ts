import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryQueue } from '../../src/delivery/index.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { storeBackends } from '../support/backends.js';
import { spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';
import { queuedEntry, SECRETS, seedWorkspaces, snapshot, TEAM_A, TEAM_B } from '../support/workspace-seed.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'cli-workspaces.sqlite'));

/** A live (not sandbox) configuration, so the CLI opens the bot's own `directory-bot` namespace. */
const liveEnv = (storeUrl: string) => ({
  STORE_URL: storeUrl,
  DIRECTORY_BASE_URL: 'http://127.0.0.1:9',
  DIRECTORY_TOKEN: 'unused',
});

async function run(args: string[], env: Record<string, string> = {}) {
  const bot = spawnBot(args, env);
  const { code } = await bot.exited;
  return { code, output: bot.output() };
}

describe('directory-bot workspace', () => {
  it('refuses a malformed workspace with a usage error (exit 2) before touching any store', async () => {
    for (const target of ['T0AAAAAAA', 'slack:C0123', 'discord:abc']) {
      const { code, output } = await run(['workspace', 'forget', target], {
        STORE_URL: 'redis://127.0.0.1:1',
      });
      expect(code).toBe(2);
      expect(output).toContain('Usage: directory-bot workspace forget');
    }
    const missing = await run(['workspace', 'export']);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('Name the workspace');
  });

  it('is listed in --help', async () => {
    const { output } = await run(['--help']);
    expect(output).toContain('  workspace export');
    expect(output).toContain('  workspace forget');
  });
});

describe.each(backends)('directory-bot workspace on the $name store', (backend) => {
  let store: BotStore;
  let before: Record<string, unknown>;
  beforeEach(async (context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    store = createStore({ url: backend.url });
    // The bot's namespace on a shared server: put back exactly what was there.
    before = await snapshot(store);
    await seedWorkspaces(store);
  });
  afterEach(async () => {
    if (!store) return;
    const added = Object.keys(await snapshot(store)).filter((key) => !(key in before));
    await store.keyv.deleteMany(added);
    if ('subscriptions' in before) await store.keyv.set('subscriptions', before['subscriptions']);
    await store.close();
  });

  it('exports one workspace as JSON without a secret, lists it in a dry run, then forgets it', async () => {
    // On Redis, delivery workers left one message queued and one given up on for team A.
    const workers = backend.name === 'redis' ? new Redis(backend.url) : undefined;
    const workerQueue = workers && new DeliveryQueue(workers, 'directory-bot:workers:q:dir0aaa');
    await workerQueue?.append('slack:C0A2', [queuedEntry('slack:C0A2', 'post:7', TEAM_A)]);
    // Died a minute ago (the command ages it by the real clock): kept DEDUPE_TTL_DAYS.
    await workerQueue?.bury(queuedEntry('slack:C0A1', 'post:8', TEAM_A), 'is_archived', Date.now() - 60_000);
    const exported = await run(['workspace', 'export', `slack:${TEAM_A}`], liveEnv(backend.url));
    expect(exported.code).toBe(0);
    const json = JSON.parse(exported.output) as {
      workspace: string;
      subscriptions: unknown[];
      queuedWorkerDeliveries: { key: string }[];
      deadDeliveries: { id: string; reason: string }[];
    };
    expect(json.workspace).toBe(`slack:${TEAM_A}`);
    expect(json.subscriptions).toHaveLength(3);
    for (const secret of SECRETS) expect(exported.output).not.toContain(secret);
    if (workerQueue) {
      expect(json.queuedWorkerDeliveries.map((q) => q.key)).toEqual([
        'directory-bot:workers:q:dir0aaa:q:slack:C0A2',
      ]);
      expect(json.deadDeliveries).toEqual([
        expect.objectContaining({ id: 'slack:C0A1|post:8', reason: 'is_archived' }),
      ]);
    }

    const seeded = await snapshot(store);
    const dry = await run(['workspace', 'forget', `slack:${TEAM_A}`, '--dry-run'], liveEnv(backend.url));
    expect(dry.code).toBe(0);
    expect(dry.output).toContain('nothing was deleted');
    expect(dry.output).toMatch(/delivery ledger\s+6/);
    expect(dry.output).toContain(`slack:installation:team:${TEAM_A}`);
    expect(await snapshot(store)).toEqual(seeded);

    const forgot = await run(['workspace', 'forget', `slack:${TEAM_A}`], liveEnv(backend.url));
    expect(forgot.code).toBe(0);
    const [queued, dead] = workerQueue ? [3, 1] : [2, 0];
    expect(forgot.output).toMatch(
      new RegExp(
        `subscriptions\\s+3\\n\\s+reminders\\s+1\\n\\s+queued deliveries\\s+${queued}\\n\\s+dead deliveries\\s+${dead}\\n\\s+delivery ledger\\s+6\\n\\s+delivery log pages\\s+2\\n\\s+held by schedules\\s+0\\n\\s+installations\\s+1`,
      ),
    );
    if (workers && workerQueue) {
      expect(await workerQueue.entries('slack:C0A2')).toEqual([]);
      expect(await workerQueue.dead()).toEqual([]);
      const left = await workers.keys('directory-bot:workers:*');
      expect(left.filter((key) => /C0A[12]/.test(key))).toEqual([]);
      if (left.length > 0) await workers.del(...left);
      workers.disconnect();
    }
    expect(forgot.output).toContain('slack:C0SHARED');
    const left = Object.keys(await snapshot(store));
    expect(left.filter((key) => /C0A[12]|T0AAAAAAA/.test(key))).toEqual([]);
    expect(left).toContain(`slack:installation:team:${TEAM_B}`);
    // Four child processes; on Redis each lingers a few seconds after closing the store.
  }, 120_000);
});
