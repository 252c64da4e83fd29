import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

const CPU_CGROUPS = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** How the processes of a run were held to their CPU share. */
export type CpuCapMethod = 'cgroup' | 'taskset' | 'none';

/** CFS throttling of one cgroup (cpu.stat): periods run, periods the quota ran out in. */
export interface Throttling {
  periods: number;
  throttled: number;
}

/**
 * Holds `count` processes to `cores` of CPU each: a cgroup v1 `cpu` group per process with a CFS
 * quota of `cores` × the period (root, cgroup v1 mounted writable), and a high `cpu.shares` so the
 * machine's other work does not take that share from them; else, when there are at least as many
 * cores as processes, each pinned to a core of its own with `taskset` (a whole core, not `cores`);
 * else nothing, and `reason` says why. `release` moves the processes back and removes the groups,
 * and runs at exit too, so no group outlives the bench.
 */
export class CpuCaps {
  readonly method: CpuCapMethod;
  readonly reason: string;
  readonly #groups: string[] = [];
  /** The test bed's group (Redis, the fake platform, the bench): no quota, the same high shares. */
  #bed: string | undefined;
  readonly #pids = new Set<number>();
  readonly #onExit = () => this.release();
  /** Ctrl-C or a kill: release, then die of the signal as Node would have. */
  readonly #onSignal = (signal: NodeJS.Signals) => {
    this.release();
    process.kill(process.pid, signal);
  };

  constructor(count: number, cores: number) {
    const groups = tryCgroups(count, cores);
    if (Array.isArray(groups)) {
      this.method = 'cgroup';
      this.reason = `cgroup v1 cpu quota ${cores} core each (cfs_quota_us ${Math.round(cores * PERIOD_US)} / period ${PERIOD_US}), cpu.shares 8192; Redis, the fake Slack and the bench in a group of their own, shares 8192, no quota`;
      this.#bed = groups.pop();
      this.#groups = groups;
      process.once('exit', this.#onExit);
      process.once('SIGINT', this.#onSignal);
      process.once('SIGTERM', this.#onSignal);
    } else if (count <= cpus().length && hasTaskset()) {
      this.method = 'taskset';
      this.reason = `not cgroups (${groups}): each worker pinned to a core of its own with taskset (a whole core, not ${cores})`;
    } else {
      this.method = 'none';
      this.reason = `not isolated: ${groups}; ${count} workers on ${cpus().length} cores cannot be pinned a core each`;
    }
  }

  /** Holds process `pid` (the `index`-th) to its share; call before it does the measured work. */
  add(pid: number, index: number): void {
    this.#pids.add(pid);
    if (this.method === 'cgroup') writeFileSync(join(this.#groups[index]!, 'cgroup.procs'), String(pid));
    else if (this.method === 'taskset')
      execFileSync('taskset', ['-a', '-cp', String(index % cpus().length), String(pid)], { stdio: 'ignore' });
  }

  /**
   * Gives a process of the test bed (Redis, the fake platform, the bench itself) the workers'
   * priority without a quota, so the machine's other work does not make it what binds (cgroups only).
   */
  addBed(pid: number): void {
    if (this.#bed === undefined) return;
    this.#pids.add(pid);
    writeFileSync(join(this.#bed, 'cgroup.procs'), String(pid));
  }

  /** The CFS throttling of the `index`-th group so far (cgroups only). */
  throttling(index: number): Throttling | undefined {
    const group = this.#groups[index];
    if (this.method !== 'cgroup' || group === undefined) return undefined;
    const stat = readFileSync(join(group, 'cpu.stat'), 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(stat)?.[1] ?? 0);
    return { periods: field('nr_periods'), throttled: field('nr_throttled') };
  }

  /** Moves every process still alive back to the root group and removes the groups. Idempotent. */
  release(): void {
    for (const pid of this.#pids) {
      try {
        if (this.method === 'cgroup') writeFileSync(join(CPU_CGROUPS, 'cgroup.procs'), String(pid));
      } catch {
        // Gone already.
      }
    }
    this.#pids.clear();
    const groups = [...this.#groups.splice(0), ...(this.#bed === undefined ? [] : [this.#bed])];
    this.#bed = undefined;
    for (const group of groups) {
      try {
        rmdirSync(group);
      } catch {
        // Removed already, or someone else's process in it: left for the next reboot.
      }
    }
    process.off('exit', this.#onExit);
    process.off('SIGINT', this.#onSignal);
    process.off('SIGTERM', this.#onSignal);
  }
}

/** CPU a process has used so far (user + system, every thread), ms, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

/** The groups made (one per process, then the test bed's), or why none could be. */
function tryCgroups(count: number, cores: number): string[] | string {
  if (!existsSync(join(CPU_CGROUPS, 'cpu.cfs_quota_us')))
    return `no cgroup v1 cpu controller at ${CPU_CGROUPS}`;
  const made: string[] = [];
  try {
    for (let i = 0; i <= count; i += 1) {
      const group = join(CPU_CGROUPS, `directory-bot-bench-${process.pid}-${i < count ? i : 'bed'}`);
      mkdirSync(group);
      made.push(group);
      writeFileSync(join(group, 'cpu.shares'), '8192');
      if (i === count) continue; // the bed: no quota
      writeFileSync(join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(group, 'cpu.cfs_quota_us'), String(Math.round(cores * PERIOD_US)));
    }
    return made;
  } catch (error) {
    for (const group of made) {
      try {
        rmdirSync(group);
      } catch {
        // Best effort.
      }
    }
    return `${CPU_CGROUPS} not writable (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
