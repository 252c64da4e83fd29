/** Getting a routed message to its channel exactly once: the delivered ledger, the outbox, edits, threads and the paced dispatcher. */
export { DeliveredLedger, type PostedReference } from './delivered-ledger.js';
export {
  DELIVERY_LOG_LIMIT,
  DeliveryLog,
  type DeliveryLogOutcome,
  type DeliveryRecord,
} from './delivery-log.js';
export { type DispatchEvent, messageLinkOf } from './dispatch/delivery-attempt.js';
export { Dispatcher } from './dispatch/dispatcher.js';
export { TokenBucket } from './dispatch/token-bucket.js';
export { type EditDecision, type EditLimits, requestEdit } from './edits.js';
export { type EntryThread, Outbox, type OutboxEntry } from './outbox.js';
export { threadCommentRoutes } from './thread-comment-routes.js';
export { entryThread } from './threads.js';
