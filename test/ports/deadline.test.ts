import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../../src/ports/deadline.js';

const never = () => new Promise<never>(() => {});
const activeTimeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('withDeadline', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers with the work when it settles before the deadline, and leaves no timer behind', async () => {
    const before = activeTimeouts();
    await expect(withDeadline(Promise.resolve('done'), 60_000, () => 'late')).resolves.toBe('done');
    // A pending 60 s timer would keep a CLI process alive for a minute after its work is done.
    expect(activeTimeouts()).toBe(before);
  });

  it("passes the work's rejection through as it is, and clears the timer", async () => {
    vi.useFakeTimers();
    const failure = new Error('store refused');
    await expect(withDeadline(Promise.reject(failure), 1000, () => 'late')).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settles with what onTimeout returns once the time is up', async () => {
    vi.useFakeTimers();
    const answer = withDeadline(never(), 1000, () => 'timeout' as const);
    await vi.advanceTimersByTimeAsync(999);
    let settled = false;
    void answer.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toBe('timeout');
  });

  it('rejects with what onTimeout throws', async () => {
    vi.useFakeTimers();
    const refusal = new Error('too slow');
    const answer = withDeadline(never(), 50, () => {
      throw refusal;
    });
    const outcome = expect(answer).rejects.toBe(refusal);
    await vi.advanceTimersByTimeAsync(50);
    await outcome;
  });

  it('rejects with "no answer within N ms" when no onTimeout is given', async () => {
    vi.useFakeTimers();
    const answer = withDeadline(never(), 1500.4);
    const outcome = expect(answer).rejects.toThrow('no answer within 1500 ms');
    await vi.advanceTimersByTimeAsync(1501);
    await outcome;
  });

  it('absorbs a rejection that comes after the deadline (no unhandled rejection)', async () => {
    vi.useFakeTimers();
    let fail: (error: Error) => void = () => {};
    const late = new Promise<string>((_, reject) => {
      fail = reject;
    });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const answer = withDeadline(late, 10, () => 'timeout');
      await vi.advanceTimersByTimeAsync(10);
      await expect(answer).resolves.toBe('timeout');
      fail(new Error('finally answered, too late'));
      await vi.advanceTimersByTimeAsync(0);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
