import type { DeliveryPacing } from '../../src/ports/index.js';
import { type RecordedDelivery, RecordingAdapter } from '../support/recording-adapter.js';

/**
 * Limits far above anything the benchmark sends: freshness measures the pipeline (poll → route
 * → queue → dispatch), so the platform itself must never pace.
 */
const UNPACED: DeliveryPacing = {
  perDestination: { ratePerSecond: 10_000, burst: 10_000 },
  global: { ratePerSecond: 100_000, burst: 100_000 },
};

/** An instant chat platform that notes when each delivery arrived (its `at`). */
export function timingAdapter(): RecordingAdapter {
  return new RecordingAdapter('console', UNPACED);
}

/** The item part of a delivery's idempotency key, e.g. `comments:new:1042`. */
export function itemKeyOf(delivery: RecordedDelivery): string {
  // The dispatcher's key is `${destinationKey}|${itemKey}`.
  return delivery.idempotencyKey.slice(delivery.idempotencyKey.indexOf('|') + 1);
}
