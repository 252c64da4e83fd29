/**
 * `npm run bench:spike [-- --deliveries N --workspaces N --concurrency N --rounds N]`: the scale-out SPIKE
 * (docs/adr/005-scaling-out.md), one BullMQ worker process against two on the same burst. Needs
 * Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379). Not part of `npm run bench` nor CI.
 */
import { parseArgs } from 'node:util';
import { machineInfo } from '../support.js';
import { spikeWorkers } from './worker-spike.js';

const { values } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '10000' },
    workspaces: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '1' },
    bullmq: { type: 'string', default: 'bullmq' },
  },
});
const result = await spikeWorkers({
  deliveries: Number(values.deliveries),
  workspaces: Number(values.workspaces),
  concurrency: Number(values.concurrency),
  rounds: Number(values.rounds),
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  bullmq: values.bullmq,
});
console.log(JSON.stringify({ ...result, machine: machineInfo() }, null, 2));
for (const v of result.violations) console.log(`BROKEN ${v.benchmark}: ${v.problem}`);
process.exitCode = result.violations.length > 0 ? 1 : 0;
