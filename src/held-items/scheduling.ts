import type Keyv from 'keyv';
import type { DeliveredLedger, Outbox } from '../delivery/index.js';
import { composeDigest } from '../messages/index.js';
import type { Clock } from '../ports/index.js';
import type { ZoneOf } from '../schedule/index.js';
import type { SubscriptionRepository } from '../subscriptions/index.js';
import { HeldItems } from './held-item-store.js';
import { createScheduleGate, type ScheduleGateEvent } from './hold-gate.js';
import type { ComposeDigest } from './release-entries.js';
import { createScheduleRunner, type ScheduleEvent } from './release-runner.js';

/** What the engine needs for digests, quiet hours and caps; every part has a default. */
export interface SchedulingOptions {
  /** A subscription's zone (its `--tz`, its channel's, its workspace's, else UTC); default: its `--tz`, else UTC. */
  zoneOf?: ZoneOf;
  /** Writes a digest, quiet-hours or cap summary; default src/messages' composeDigest. */
  composeDigest?: ComposeDigest;
  /** The runner's safety tick; default SCHEDULE_TICK_MS. */
  tickMs?: number;
}

export type SchedulingEvent = ScheduleEvent | ScheduleGateEvent;

/**
 * The held-items store, the gate the feed runner passes scheduled subscriptions' messages
 * through, and the runner that releases them, sharing one store and one zone lookup.
 */
export function createScheduling(
  options: SchedulingOptions,
  deps: {
    keyv: Keyv;
    directoryId: string;
    subscriptions: SubscriptionRepository;
    outbox: Outbox;
    ledger: DeliveredLedger;
    clock: Clock;
    wake: () => void;
    platforms: () => ReadonlySet<string>;
    repliesInThreads: (platform: string) => boolean;
    onEvent: (event: SchedulingEvent) => void;
  },
) {
  const zoneOf = options.zoneOf ?? ownZoneOrUtc;
  const held = new HeldItems({ keyv: deps.keyv, directoryId: deps.directoryId });
  const runner = createScheduleRunner({
    ...deps,
    held,
    zoneOf,
    composeDigest: options.composeDigest ?? composeDigest,
    ...(options.tickMs === undefined ? {} : { tickMs: options.tickMs }),
  });
  const gate = createScheduleGate({
    held,
    zoneOf,
    onEvent: (event) => {
      deps.onEvent(event);
      // A new quiet or cap window may end before the runner's timer: let it plan again.
      runner.wake();
    },
  });
  return {
    held,
    gate,
    runner,
    start(): void {
      held.reload();
      runner.start();
    },
    stop: () => runner.stop(),
  };
}

/** Without the channel and workspace zones (src/app passes them): the subscription's `--tz`, else UTC. */
const ownZoneOrUtc: ZoneOf = async (subscription) => subscription.schedule?.timeZone ?? 'UTC';
