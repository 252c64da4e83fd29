import type { ScheduleOptions } from '../schedule/index.js';
import { latestDigestAt, nextDigestAt, quietWindowAt } from '../schedule/index.js';
import type { HeldState, HoldReason } from './held-item-store.js';

/** One release a subscription's state calls for now: the items held for `kind` found before `before`. */
export interface DueRelease {
  kind: HoldReason;
  before: number;
  /** A digest posted this long after its time says so (the bot was down then). */
  lateFor?: number;
}

/** A digest posted later than this after its due time is marked late (as reminders are). */
export const DIGEST_LATE_AFTER_MS = 2 * 60_000;

/**
 * What is due for one subscription at `now`, and when it next will be (undefined: nothing
 * scheduled). Pure: the runner turns the answer into outbox entries and state writes.
 *
 * Digests: the slot after the last one sent is due at its time, or, when it falls inside quiet
 * hours, when they end. Several slots missed while the bot was down make ONE late digest,
 * for the latest of them, covering everything held since the last digest sent: a channel that
 * comes back gets one catch-up message, not a burst of stale ones, and no item is left out.
 */
export function dueReleases(
  schedule: ScheduleOptions | undefined,
  state: HeldState,
  zone: string,
  now: number,
): { due: DueRelease[]; nextAt: number | undefined } {
  if (state.releasing) return { due: [state.releasing], nextAt: now };
  const due: DueRelease[] = [];
  let nextAt: number | undefined;
  const later = (at: number) => {
    nextAt = nextAt === undefined ? at : Math.min(nextAt, at);
  };
  const holds = (reason: HoldReason) => state.items.some((item) => item.reason === reason);

  if (state.quietUntil !== undefined) {
    if (state.quietUntil <= now) due.push({ kind: 'quiet', before: state.quietUntil });
    else later(state.quietUntil);
  }
  if (state.capUntil !== undefined) {
    if (state.capUntil <= now) due.push({ kind: 'cap', before: state.capUntil });
    else later(state.capUntil);
  }
  const recurrence = schedule?.digest;
  const dueAt = digestDueAt(schedule, state, zone);
  if (recurrence && dueAt !== undefined) {
    const quiet = schedule?.quiet;
    const quietNow = quiet ? quietWindowAt(quiet, zone, now) : undefined;
    if (dueAt > now) later(dueAt);
    else if (quietNow) later(quietNow.end);
    else {
      const slot = latestDigestAt(recurrence, zone, now);
      due.push({
        kind: 'digest',
        before: slot,
        ...(now - dueAt > DIGEST_LATE_AFTER_MS ? { lateFor: dueAt } : {}),
      });
    }
  } else if (!recurrence && holds('digest')) {
    // The digest was switched off: what it held goes out now.
    due.push({ kind: 'digest', before: now + 1 });
  }
  return { due, nextAt };
}

/**
 * When the digest after the last one sent is due: its slot, or the end of the quiet hours the
 * slot falls in. Undefined without a digest (or before its first slot is set).
 */
function digestDueAt(
  schedule: ScheduleOptions | undefined,
  state: HeldState,
  zone: string,
): number | undefined {
  const recurrence = schedule?.digest;
  if (!recurrence || state.lastDigestAt === undefined) return undefined;
  const first = nextDigestAt(recurrence, zone, state.lastDigestAt);
  // A digest is a message like any other: quiet hours hold it until they end.
  const firstQuiet = schedule?.quiet ? quietWindowAt(schedule.quiet, zone, first) : undefined;
  return firstQuiet ? firstQuiet.end : first;
}

/**
 * When items held for `reason` go (`/directory why`): the digest's due time, or the end of the
 * quiet hours or cap window holding them; at `now` or before, they go as soon as the runner
 * next looks. A digest due inside quiet hours that began after it waits for their end, as
 * `dueReleases` makes it.
 */
export function heldUntil(
  schedule: ScheduleOptions | undefined,
  state: HeldState,
  zone: string,
  reason: HoldReason,
  now: number,
): number {
  if (reason === 'quiet') return state.quietUntil ?? now;
  if (reason === 'cap') return state.capUntil ?? now;
  const dueAt = digestDueAt(schedule, state, zone);
  if (dueAt === undefined || dueAt > now) return dueAt ?? now;
  const quietNow = schedule?.quiet ? quietWindowAt(schedule.quiet, zone, now) : undefined;
  return quietNow ? quietNow.end : now;
}
