/** The emulator's only source of time: windows, "upcoming" and the activity simulator all read it. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

/** A clock that tests move by hand, so quota windows and schedules never need a sleep. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** Default start of a manual clock: a fixed instant, so seeded data is identical run to run. */
export const DEFAULT_MANUAL_START_MS = Date.UTC(2026, 10, 21, 10, 0, 0);

/**
 * Creates a clock that only moves when told to.
 * @param startMs initial epoch milliseconds (defaults to a fixed instant)
 */
export function createManualClock(startMs: number = DEFAULT_MANUAL_START_MS): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
      current += ms;
    },
    set(ms: number) {
      if (!Number.isFinite(ms)) throw new RangeError(`cannot set a clock to ${ms}`);
      current = ms;
    },
  };
}

/** Whether a clock can be moved by hand. */
export function isManualClock(clock: Clock): clock is ManualClock {
  const candidate = clock as Partial<ManualClock>;
  return typeof candidate.advance === 'function' && typeof candidate.set === 'function';
}
