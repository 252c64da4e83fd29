import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { POSTS_QUERY } from '../../src/directory/v2-queries.js';
import { round } from './support.js';

/** The slice of autocannon's API this benchmark uses (the package ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number };
  throughput: { average: number };
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (options: {
  url: string;
  method?: string;
  body?: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** What one kind of request got from the emulator. */
export interface EmulatorCapacity {
  request: string;
  /**
   * Requests served per second of the emulator's own CPU time (user + system): what its one
   * event loop serves when it has a core to itself, whatever the load generator or the
   * machine's other tenants leave it. The figure the headroom is read from.
   */
  capacityPerSecond: number;
  /** Requests per second autocannon achieved (capped by the load generator and the machine). */
  requestsPerSecond: number;
  /** Share of the run's wall time the emulator was on a CPU (1 = saturated). */
  emulatorBusy: number;
  p99Ms: number;
  /** Bytes per answer (headers included), as autocannon read them. */
  bytesPerAnswer: number;
  errors: number;
}

export interface EmulatorBenchResult {
  /** The bot's comments poll as it sends it (`newer`, 50 per page, by id ascending), ten comments new. */
  v1: EmulatorCapacity;
  /** `GET /v1/comments?per_page=50`: the heaviest V1 page, fifty full comments (bound by bytes). */
  v1Heaviest: EmulatorCapacity;
  /** The bot's own posts poll (`POSTS_QUERY`, first 10, NEWEST) on `/v2/api/graphql`. */
  v2Posts: EmulatorCapacity;
  connections: number;
}

const CONNECTIONS = 10;
const HEADERS = { authorization: 'Bearer dev-token', accept: 'application/json' };
const POSTS_BODY = JSON.stringify({ query: POSTS_QUERY, variables: { first: 10, order: 'NEWEST' } });

/** Starts the emulator in its own process (`EMULATOR_BENCH_CPU_PROF=<dir>` profiles it there). */
async function startChild(): Promise<{ url: string; child: ChildProcess }> {
  const profileDir = process.env['EMULATOR_BENCH_CPU_PROF'];
  const child = fork(fileURLToPath(new URL('./emulator-child.ts', import.meta.url)), [], {
    execArgv: [
      '--import',
      import.meta.resolve('tsx'),
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`the emulator process exited with ${code} before listening`)),
    );
  });
  return { url, child };
}

function cpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const listen = (message: unknown) => {
      const value = (message as { cpuMicros?: number }).cpuMicros;
      if (value === undefined) return;
      child.off('message', listen);
      resolve(value);
    };
    child.on('message', listen);
    child.send('cpu');
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('close');
  await exited;
}

async function load(
  child: ChildProcess,
  label: string,
  options: { url: string; method?: string; body?: string; headers: Record<string, string> },
  durationSeconds: number,
): Promise<EmulatorCapacity> {
  // A short warm-up first, so the JIT and the emulator's caches are measured warm.
  await autocannon({ ...options, connections: CONNECTIONS, duration: 1 });
  const cpuBefore = await cpuMicros(child);
  const startedAt = performance.now();
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: durationSeconds });
  const wallSeconds = (performance.now() - startedAt) / 1000;
  const cpuSeconds = ((await cpuMicros(child)) - cpuBefore) / 1e6;
  return {
    request: label,
    capacityPerSecond: Math.round(result.requests.total / cpuSeconds),
    requestsPerSecond: Math.round(result.requests.average),
    emulatorBusy: round(cpuSeconds / wallSeconds, 2),
    p99Ms: result.latency.p99,
    bytesPerAnswer:
      result.requests.average > 0 ? Math.round(result.throughput.average / result.requests.average) : 0,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * How many requests per second the emulator serves, for V1 pages (the bot's comments poll, and
 * the heaviest page) and for the bot's GraphQL posts poll, measured one after another with autocannon (10 connections, keep-alive). The emulator
 * runs in a child process with quotas out of reach, so the load generator does not take its
 * event loop and the figure is serving, not 429s.
 */
export async function benchEmulator(
  options: { durationSeconds?: number } = {},
): Promise<EmulatorBenchResult> {
  const duration = options.durationSeconds ?? 5;
  const { url, child } = await startChild();
  try {
    const latest = await fetch(`${url}/v1/comments?per_page=1`, { headers: HEADERS });
    const newest = ((await latest.json()) as { comments: { id: number }[] }).comments[0]?.id ?? 0;
    const poll = `/v1/comments?newer=${newest - 10}&per_page=50&sort_by=id&order=asc`;
    const v1 = await load(child, `GET ${poll}`, { url: `${url}${poll}`, headers: HEADERS }, duration);
    const v1Heaviest = await load(
      child,
      'GET /v1/comments?per_page=50',
      { url: `${url}/v1/comments?per_page=50`, headers: HEADERS },
      duration,
    );
    const v2Posts = await load(
      child,
      'POST /v2/api/graphql posts(first: 10, order: NEWEST)',
      {
        url: `${url}/v2/api/graphql`,
        method: 'POST',
        body: POSTS_BODY,
        headers: { ...HEADERS, 'content-type': 'application/json' },
      },
      duration,
    );
    return { v1, v1Heaviest, v2Posts, connections: CONNECTIONS };
  } finally {
    await stopChild(child);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchEmulator();
  for (const c of [result.v1, result.v1Heaviest, result.v2Posts]) {
    console.log(
      `emulator ${c.request}: capacity ${c.capacityPerSecond} req/s of emulator CPU, achieved ${c.requestsPerSecond} req/s (emulator busy ${c.emulatorBusy}), p99 ${c.p99Ms} ms, ${c.bytesPerAnswer} B/answer, ${c.errors} errors`,
    );
  }
}
