import { cpus, totalmem } from 'node:os';
import { createItemComposer } from '../../src/engine/compose-item.js';
import type { EngineOptions } from '../../src/engine/engine.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { systemClock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/index.js';
import { directoryIdFor } from '../../src/store/directory-keys.js';

/**
 * The engine options every benchmark's engine shares: the directory id the emulator at
 * `emulatorUrl` gets, the real clock and the real item composer.
 */
export function benchEngineParts(
  emulatorUrl: string,
): Pick<EngineOptions, 'directoryId' | 'clock' | 'compose'> {
  return {
    directoryId: directoryIdFor(emulatorUrl),
    clock: systemClock,
    compose: createItemComposer(systemClock),
  };
}

/** A logger that drops everything: benchmarks must not pay for (or print) log lines. */
export function silentLogger(): Logger {
  return createLogger({ level: 'silent', format: 'json' });
}

/** A small seeded PRNG (mulberry32), so a run's "random moments" can be repeated. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The `p`-th percentile (0–100) by the nearest-rank method: always one of the samples, so a
 * p95 of 20 samples is the 19th smallest, not an interpolation between two.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** Rounds for display and for the JSON (ratios to 3 decimals are plenty). */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Polls `condition` every `everyMs` until it holds or `timeoutMs` passes; resolves with whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs: number, everyMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  totalMemoryMiB: number;
  node: string;
  platform: string;
}

/** What the numbers were measured on: ratios travel between machines better than timings, but not perfectly. */
export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    cpus: cores.length,
    totalMemoryMiB: Math.round(totalmem() / 1_048_576),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/**
 * A problem that makes the run fail: a correctness goal broken (an item lost or posted twice),
 * as opposed to a slow number, which is only reported.
 */
export interface Violation {
  benchmark: string;
  problem: string;
}

export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
}

/** The bot's latency against a baseline's (a bare Bolt app's). */
export interface LatencyVersus {
  bot: LatencySummary;
  bare: LatencySummary;
  /** bot ÷ bare at the same percentile. */
  p50Ratio: number;
  p99Ratio: number;
}

/** p50 and p99 of latency samples in ms, and the same figures over a baseline's. */
export function latencyVersus(samples: readonly number[], baseline: readonly number[]): LatencyVersus {
  const summary = (times: readonly number[]) => ({
    p50Ms: round(percentile(times, 50), 2),
    p99Ms: round(percentile(times, 99), 2),
  });
  const bot = summary(samples);
  const bare = summary(baseline);
  return {
    bot,
    bare,
    p50Ratio: round(bot.p50Ms / bare.p50Ms, 2),
    p99Ratio: round(bot.p99Ms / bare.p99Ms, 2),
  };
}
