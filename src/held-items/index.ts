/** What a subscription's schedule holds back (digests, quiet hours, caps) and the runner that releases it. */
export { heldUntil } from './due-releases.js';
export {
  emptyHeldState,
  type HeldItems,
  type HeldState,
  type HoldReason,
  holdItems,
} from './held-item-store.js';
export { type HeldSummary, heldSummaries } from './held-summary.js';
export type { ScheduledCandidate, ScheduleGate } from './hold-gate.js';
export { createScheduling, type SchedulingEvent, type SchedulingOptions } from './scheduling.js';
