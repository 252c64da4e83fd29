import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { startEmulator } from '../../src/emulator/index.js';

/** The slice of autocannon's API this benchmark uses (the package ships no types). */
interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface EmulatorBenchResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/**
 * Measures how fast the emulator serves `GET /v1/comments?per_page=50` (the heaviest V1
 * page) with autocannon. Quotas are set out of reach so it measures serving, not 429s.
 */
export async function benchEmulator(
  options: { durationSeconds?: number } = {},
): Promise<EmulatorBenchResult> {
  const quota = 1_000_000_000;
  const emulator = await startEmulator({ quotaV1: quota, quotaV2Requests: quota, quotaComplexity: quota });
  try {
    const result = await autocannon({
      url: `${emulator.url}/v1/comments?per_page=50`,
      connections: 10,
      duration: options.durationSeconds ?? 5,
      headers: { authorization: 'Bearer dev-token', accept: 'application/json' },
    });
    return {
      requestsPerSecond: Math.round(result.requests.average),
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    };
  } finally {
    await emulator.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchEmulator();
  console.log(
    `emulator GET /v1/comments?per_page=50: ${result.requestsPerSecond} req/s, p99 ${result.p99Ms} ms, ${result.errors} errors`,
  );
}
