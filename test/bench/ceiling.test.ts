import { describe, expect, it } from 'vitest';
import { fanOutCeiling, minimumSpanMs } from './ceiling.js';
import { percentile, seededRandom } from './support.js';

describe('the fan-out ceiling', () => {
  it('lets a token bucket spend its burst at once and then its rate', () => {
    expect(minimumSpanMs({ kind: 'bucket', ratePerSecond: 4, burst: 20 }, 20)).toBe(0);
    expect(minimumSpanMs({ kind: 'bucket', ratePerSecond: 4, burst: 20 }, 50)).toBe(7500);
  });

  it('makes the sixth message of a 5-per-5 s window wait for the next window', () => {
    const window = { kind: 'window', limit: 5, windowMs: 5000 } as const;
    expect(minimumSpanMs(window, 5)).toBe(0);
    expect(minimumSpanMs(window, 6)).toBe(5000);
    expect(minimumSpanMs(window, 11)).toBe(10_000);
  });

  it('takes the global limit as binding when the channels together could go faster', () => {
    const ceiling = fanOutCeiling({
      channels: 50,
      perChannel: 1,
      perChannelLimit: { kind: 'bucket', ratePerSecond: 1, burst: 1 },
      globalLimit: { kind: 'bucket', ratePerSecond: 4, burst: 20 },
    });
    expect(ceiling).toMatchObject({ messages: 50, minimumSpanMs: 7500, binding: 'global' });
    expect(ceiling.messagesPerSecond).toBeCloseTo(50 / 7.5);
  });

  it('takes the per-channel limit as binding when each channel gets many messages', () => {
    const ceiling = fanOutCeiling({
      channels: 2,
      perChannel: 11,
      perChannelLimit: { kind: 'window', limit: 5, windowMs: 5000 },
      globalLimit: { kind: 'window', limit: 50, windowMs: 1000 },
    });
    expect(ceiling).toMatchObject({ messages: 22, minimumSpanMs: 10_000, binding: 'per-channel' });
  });
});

describe('benchmark statistics', () => {
  it('takes a percentile by nearest rank, always one of the samples', () => {
    const samples = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(percentile(samples, 95)).toBe(19);
    expect(percentile(samples, 50)).toBe(10);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('repeats the same random moments for the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(first[0]);
  });
});
