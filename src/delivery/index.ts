/** Getting a routed message to its channel exactly once: the delivered ledger, the outbox, edits, threads, the paced dispatcher and, with Redis, the delivery workers (ADR 005). */
export { DeliveredLedger } from './delivered-ledger.js';
export {
  DeliveryLog,
  type DeliveryLogOutcome,
  type DeliveryRecord,
  type DeliveryRecorder,
  LOG_LIMIT,
} from './delivery-log.js';
export type { DispatchEvent } from './dispatch/delivery-attempt.js';
export { Dispatcher } from './dispatch/dispatcher.js';
export { TokenBucket } from './dispatch/token-bucket.js';
export { type EditDecision, type EditLimits, requestEdit } from './edits.js';
export { type EntryThread, Outbox, type OutboxEntry } from './outbox.js';
export { threadCommentRoutes } from './thread-comment-routes.js';
export { entryThread } from './threads.js';
export {
  WorkerDeliveriesByChannel,
  type WorkerFifo,
  type WorkerGraveyard,
} from './workers/deliveries-by-channel.js';
export { type DeadDelivery, DeliveryQueue } from './workers/delivery-queue.js';
export { DeliveryWorker, type DeliveryWorkerOptions } from './workers/delivery-worker.js';
export {
  checkRedisForWorkers,
  DrainJobs,
  openRedis,
  type WorkerNames,
  workerNames,
} from './workers/drain-jobs.js';
export { HandOff, type HandOffEvent } from './workers/hand-off.js';
