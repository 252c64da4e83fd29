import { spawnSync } from 'node:child_process';
import type { Redis } from 'ioredis';
import { type ChildBot, spawnBot } from '../support/child-bot.js';

/** Builds dist/ if it is older than the sources: the worker processes run the compiled CLI. */
export function buildCli(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'ignore' });
  if (build.status !== 0)
    throw new Error(`building dist/ for the worker processes failed (exit ${build.status})`);
}

/**
 * `count` real `directory-bot worker` processes (the compiled CLI, as a `worker` dyno runs it) on
 * `env`'s store, each resolved once it logged "delivery worker ready".
 */
export async function startWorkers(count: number, env: Record<string, string>): Promise<ChildBot[]> {
  const workers = Array.from({ length: count }, () =>
    spawnBot(['worker'], { PORT: '0', LOG_LEVEL: 'info', DIRECTORY_TOKEN: 'dev-token', ...env }),
  );
  try {
    await Promise.all(workers.map((w) => w.waitFor(/delivery worker ready/, 60_000)));
    return workers;
  } catch (error) {
    await stopWorkers(workers);
    throw error;
  }
}

/** SIGTERM, then SIGKILL whatever did not exit in 10 s. */
export async function stopWorkers(workers: readonly ChildBot[]): Promise<void> {
  await Promise.all(
    workers.map(async (w) => {
      if (w.child.exitCode !== null || w.child.signalCode !== null) return;
      await w.stop('SIGTERM', 10_000).catch(() => w.stop('SIGKILL').catch(() => {}));
    }),
  );
}

/** Every command Redis ran so far, and the CPU it used (user + system), from INFO. */
export async function redisStats(redis: Redis): Promise<{ calls: number; cpuMs: number }> {
  const stats = await redis.info('commandstats');
  const calls = [...stats.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  const cpu = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(cpu)?.[1] ?? 0);
  return { calls, cpuMs: (field('used_cpu_user') + field('used_cpu_sys')) * 1000 };
}
