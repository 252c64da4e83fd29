import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { type ChildBot, spawnBot } from '../support/child-bot.js';
import { freePort } from '../support/free-port.js';
import { eventually } from '../support/polling.js';
import { programProblem, unavailable } from '../support/required-tools.js';
import { stopProcess } from '../support/stop-process.js';

const CHANNELS = ['w0', 'w1', 'w2', 'w3'];
const BURST = 30;

const missing = unavailable(
  'the delivery workers test (a private redis-server)',
  programProblem('redis-server', ['--version'], 'apt-get install redis-server'),
);

/** A private Redis, so the bot's fixed namespace meets no other test's keys. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  await eventually(
    () => {
      try {
        execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    },
    10_000,
    'redis to start',
  );
  return child;
}

/** Each marker's count per channel, across every process's console output. */
function deliveries(outputs: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const output of outputs)
    for (const block of output.split(/── #/).slice(1)) {
      const channel = /^(\w+) ──/.exec(block)?.[1];
      const body = block.split('\n{')[0] ?? '';
      for (const marker of body.match(/marker-\d+-end/g) ?? []) {
        const key = `${channel}|${marker}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  return counts;
}

/** Every `delivered` log line (workers log at debug), with its time, channel and item key. */
function deliveredLines(outputs: readonly string[]): { time: number; channel: string; item: string }[] {
  const lines: { time: number; channel: string; item: string }[] = [];
  for (const output of outputs)
    for (const line of output.split('\n')) {
      if (!line.startsWith('{') || !line.includes('"msg":"delivered"')) continue;
      const parsed = JSON.parse(line) as { time: number; channel: string; item: string };
      lines.push(parsed);
    }
  return lines.sort((a, b) => a.time - b.time);
}

let redis: ChildProcess | undefined;
let emulator: RunningEmulator | undefined;
const processes: ChildBot[] = [];
afterAll(async () => {
  for (const bot of processes) await bot.stop('SIGKILL').catch(() => {});
  await emulator?.close();
  if (redis) await stopProcess(redis, 'SIGTERM');
});

describe('delivery workers as real processes (ADR 005)', () => {
  it.skipIf(missing !== undefined)(
    'deliver two bursts to every channel exactly once and in order while workers are SIGKILLed and scaled 0 → 2 → 3 → 1',
    async () => {
      const redisPort = await freePort();
      redis = await startRedis(redisPort);
      emulator = await startEmulator({ port: 0, seed: 27 });
      const env = {
        PORT: '0',
        LOG_LEVEL: 'debug',
        DIRECTORY_BASE_URL: emulator.url,
        DIRECTORY_TOKEN: 'dev-token',
        STORE_URL: `redis://127.0.0.1:${redisPort}`,
        SUBSCRIPTIONS: CHANNELS.map((c) => `console:${c}=comments`).join(';'),
        POLL_MIN_INTERVAL_S: '1',
        POLLER_LEASE_TTL_S: '3',
        // Only the worker processes deliver: the web process polls and hands over.
        WORKER_IN_WEB: 'false',
      };
      const start = (command: 'start' | 'worker') => {
        const bot = spawnBot([command], env);
        processes.push(bot);
        return bot;
      };
      const web = start('start');
      await web.waitFor(/now polls and delivers/);
      await web.waitFor(/"feed":"comments".*"msg":"polled feed"/);

      const markers: string[] = [];
      const ids = new Map<string, string>();
      const burst = () => {
        for (let i = 0; i < BURST; i += 1) {
          const marker = `marker-${String(markers.length).padStart(4, '0')}-end`;
          markers.push(marker);
          ids.set(String(emulator!.admin.addComment({ body: marker })['id']), marker);
        }
      };
      const outputs = () => processes.map((p) => p.output());
      const delivered = () => [...deliveries(outputs()).values()].reduce((a, b) => a + b, 0);

      // Zero workers: the burst waits in Redis.
      burst();
      await web.waitFor(/handed to delivery workers/);
      expect(delivered()).toBe(0);

      // Two workers; one is SIGKILLed mid-burst (its drain jobs go to the other once their locks lapse).
      const first = start('worker');
      const second = start('worker');
      await Promise.all([first.waitFor(/delivery worker ready/), second.waitFor(/delivery worker ready/)]);
      await eventually(() => delivered() >= 10, 15_000, 'the first deliveries');
      expect((await first.stop('SIGKILL')).signal).toBe('SIGKILL');

      // Three workers, a second burst; then one, by a SIGKILL and a SIGTERM.
      const third = start('worker');
      const fourth = start('worker');
      await Promise.all([third.waitFor(/delivery worker ready/), fourth.waitFor(/delivery worker ready/)]);
      burst();
      await eventually(
        () => delivered() >= (BURST + 10) * CHANNELS.length,
        20_000,
        'part of the second burst',
      );
      expect((await third.stop('SIGKILL')).signal).toBe('SIGKILL');
      expect((await second.stop('SIGTERM')).code).toBe(0);

      const expected = markers.length * CHANNELS.length;
      await eventually(() => deliveries(outputs()).size >= expected, 20_000, 'every message delivered');
      // A moment for anything that would arrive twice.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await fourth.stop('SIGTERM')).code).toBe(0);
      expect((await web.stop('SIGTERM')).code).toBe(0);

      const counts = deliveries(outputs());
      const lost = CHANNELS.flatMap((c) =>
        markers.filter((m) => !counts.has(`${c}|${m}`)).map((m) => `${c}|${m}`),
      );
      const twice = [...counts].filter(([, n]) => n > 1).map(([key]) => key);
      expect(lost).toEqual([]);
      expect(twice).toEqual([]);

      // Per channel, the deliveries the workers recorded came in the order the comments were made.
      const logged = deliveredLines(outputs());
      for (const channel of CHANNELS) {
        const order = logged
          .filter((line) => line.channel === channel)
          .map((line) => ids.get(line.item.split(':').pop() ?? ''))
          .filter((marker) => marker !== undefined);
        expect(order).toEqual([...order].sort());
        expect(order.length).toBeGreaterThanOrEqual(markers.length - 2);
      }
    },
    60_000,
  );
});
