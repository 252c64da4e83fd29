/**
 * Child process of the worker spike: one BullMQ worker that posts each job through the real Slack
 * adapter and records it in the delivered ledger, as the dispatcher does. Waits for "go", reports
 * how many it delivered, when the last one finished and the CPU it used, then exits.
 */
import { createClient } from '@redis/client';
import { Registry } from 'prom-client';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { DeliveredLedger } from '../../../src/delivery/delivered-ledger.js';
import { createHttpServer } from '../../../src/observability/http-server.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { createStore } from '../../../src/store/create-store.js';
import { silentLogger } from '../support.js';
import { type DeliveryJob, loadBullMq } from './bullmq-types.js';

export interface WorkerSetup {
  bullmq: string;
  queue: string;
  redisUrl: string;
  namespace: string;
  apiUrl: string;
  token: string;
  concurrency: number;
}

export type WorkerReport =
  | { type: 'ready' }
  | { type: 'done'; delivered: number; lastAt: number; cpuMs: number };

const setup = JSON.parse(process.argv[2] ?? '{}') as WorkerSetup;
const { Worker } = await loadBullMq(setup.bullmq);
const logger = silentLogger();
const store = createStore({ url: setup.redisUrl, namespace: setup.namespace });
const ledger = new DeliveredLedger({ keyv: store.keyv, ttlMs: 86_400_000, directoryId: 'spike' });
const slack: ChatAdapter = createSlackAdapter({
  botToken: setup.token,
  signingSecret: 'spike',
  apiUrl: setup.apiUrl,
  logger,
});
await slack.start({
  http: createHttpServer({ logger, registry: new Registry() }),
  commands: { definitions: () => [], handle: async () => ({ text: '' }) } as never,
  logger,
});
const connection = createClient({ url: setup.redisUrl });
await connection.connect();

let delivered = 0;
let lastAt = 0;
let cpuBefore = process.cpuUsage();
const worker = new Worker<DeliveryJob>(
  setup.queue,
  async (job) => {
    const { destination, destinationKey, itemKey, message } = job.data;
    const outcome = await slack.deliver(destination, message, {
      idempotencyKey: `${destinationKey}|${itemKey}`,
    });
    // A thrown error is BullMQ's retry; a permanent refusal would pause the channel (not in the spike).
    if (outcome.status === 'failed') throw new Error(`${outcome.code}: ${outcome.reason}`);
    if (outcome.status === 'delivered') await ledger.markDelivered(destinationKey, itemKey);
    delivered += 1;
    lastAt = Date.now();
    return outcome.status;
  },
  { connection, concurrency: setup.concurrency, autorun: false, removeOnComplete: { age: 3600 } },
);

const report = (message: WorkerReport) => process.send?.(message);
process.on('message', (message: { type: string }) => {
  if (message.type === 'go') {
    cpuBefore = process.cpuUsage();
    void worker.run();
  } else if (message.type === 'stop') {
    void (async () => {
      const cpu = process.cpuUsage(cpuBefore);
      await worker.close();
      report({ type: 'done', delivered, lastAt, cpuMs: (cpu.user + cpu.system) / 1000 });
      await slack.stop();
      await connection.quit();
      await store.close();
      process.disconnect?.();
    })();
  }
});
report({ type: 'ready' });
