/** Getting a routed message to its channel exactly once: the delivered ledger, the outbox, edits, threads and the paced dispatcher. */
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
