import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../../src/emulator/index.js';
import type { ComposeDigest } from '../../src/held-items/release-entries.js';
import { composeDigest } from '../../src/messages/index.js';
import { RecordingAdapter } from '../support/recording-adapter.js';
import { liveReminderItem, scheduleWorld } from '../support/schedule-harness.js';

/** Quiet hours, caps, restarts and crashes on a manual clock at fixed instants (any TZ, any hour). */

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);
const DAILY_9 = { every: 'daily', at: { hour: 9, minute: 0 } } as const;

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops) await stop();
  stops = [];
});

function world(clock: ManualClock, keyv?: Keyv, adapter?: RecordingAdapter, compose?: ComposeDigest) {
  const w = scheduleWorld(clock, keyv, adapter, compose);
  stops.push(() => w.stop());
  return w;
}

/** A store that dies (throws, as a SIGKILL would stop the process) at a chosen write. */
class CrashingKeyv extends Keyv {
  crashAt: ((key: string) => boolean) | undefined;
  override async set(...args: Parameters<Keyv['set']>): Promise<boolean> {
    if (this.crashAt?.(String(args[0]))) {
      this.crashAt = undefined;
      throw new Error('killed');
    }
    return super.set(...args);
  }
}

describe('quiet hours', () => {
  const QUIET = {
    quiet: { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } },
    timeZone: 'America/New_York',
  };

  it('holds messages through quiet hours spanning midnight and posts a few individually when they end', async () => {
    const clock = createManualClock(at('2026-11-23T03:30:00Z')); // 22:30 EST on the 22nd
    const w = world(clock);
    await w.begin();
    await w.subscribe(QUIET);
    expect(await w.poll('a', 'b')).toMatchObject({ queued: 0, held: 2 });
    clock.set(at('2026-11-23T06:00:00Z')); // 01:00 EST, past midnight
    await w.poll('c');
    const { nextAt } = await w.tick();
    expect(nextAt).toBe(at('2026-11-23T12:00:00Z')); // 07:00 EST
    expect(w.titles()).toEqual([]);
    clock.set(at('2026-11-23T12:00:00Z'));
    await w.tick();
    expect(w.titles()).toEqual(['a', 'b', 'c']);
    clock.set(at('2026-11-23T12:30:00Z'));
    await w.poll('d');
    expect(w.titles()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('posts one summary instead when more than five were held', async () => {
    const clock = createManualClock(at('2026-11-24T04:00:00Z')); // 23:00 EST
    const w = world(clock);
    await w.begin();
    await w.subscribe(QUIET);
    await w.poll('a', 'b', 'c', 'd', 'e', 'f', 'g');
    clock.set(at('2026-11-24T12:00:00Z'));
    await w.tick();
    expect(w.titles()).toEqual(['quiet 7 items']);
    expect(w.adapter.delivered('C1')[0]?.text).toBe('a\nb\nc\nd\ne\nf\ng');
  });

  it('still sends live-event reminders inside quiet hours, unless --quiet-strict', async () => {
    const clock = createManualClock(at('2026-11-24T04:00:00Z'));
    const w = world(clock);
    await w.begin();
    await w.subscribe(QUIET, 'C1', 'live');
    await w.subscribe({ ...QUIET, quietStrict: true }, 'C2', 'live');
    await w.poll(liveReminderItem('e1', clock.now() + 10 * MINUTE, clock.now()));
    expect(w.titles('C1')).toEqual(['e1']);
    expect(w.titles('C2')).toEqual([]);
    clock.set(at('2026-11-24T12:00:00Z'));
    await w.tick();
    expect(w.titles('C2')).toEqual(['e1']);
  });
});

describe('volume caps', () => {
  it('posts up to --max-per-hour and folds the rest into one summary when the hour ends', async () => {
    const clock = createManualClock(at('2026-11-23T10:05:00Z'));
    const w = world(clock);
    await w.begin();
    await w.subscribe({ maxPerHour: 2 });
    expect(await w.poll('a', 'b', 'c', 'd', 'e')).toMatchObject({ queued: 2, held: 3 });
    clock.set(at('2026-11-23T10:59:59Z'));
    await w.tick();
    expect(w.titles()).toEqual(['a', 'b']);
    clock.set(at('2026-11-23T11:00:00Z'));
    await w.tick();
    expect(w.titles()).toEqual(['a', 'b', 'cap 3 items']);
    await w.poll('f');
    expect(w.titles()).toEqual(['a', 'b', 'cap 3 items', 'f']);
  });

  it('counts --max-per-day over the local day (Asia/Kolkata starts it at 18:30 UTC)', async () => {
    const clock = createManualClock(at('2026-11-23T17:00:00Z'));
    const w = world(clock);
    await w.begin();
    await w.subscribe({ maxPerDay: 1, timeZone: 'Asia/Kolkata' });
    await w.poll('a', 'b');
    clock.set(at('2026-11-23T18:29:00Z'));
    await w.tick();
    expect(w.titles()).toEqual(['a']);
    clock.set(at('2026-11-23T18:30:00Z')); // midnight in Kolkata
    await w.tick();
    await w.poll('c');
    expect(w.titles()).toEqual(['a', 'cap 1 items', 'c']);
  });
});

describe('restarts and crashes', () => {
  it('sends a digest due while the bot was down once when it comes back, marked late, covering the missed days', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const keyv = new Keyv();
    const adapter = new RecordingAdapter();
    const first = world(clock, keyv, adapter);
    await first.begin();
    await first.subscribe({ digest: DAILY_9 });
    await first.poll('a', 'b');
    await first.stop();
    // Down from Monday 10:00 to Wednesday 11:30: the Tuesday and Wednesday slots were missed.
    clock.set(at('2026-11-25T11:30:00Z'));
    const second = world(clock, keyv, adapter);
    await second.begin();
    await second.tick();
    await second.tick();
    expect(second.titles()).toEqual(['digest 2 items late for Tue 24 Nov 09:00']);
    await second.stop();
    const third = world(clock, keyv, adapter);
    await third.begin();
    await third.tick();
    clock.set(at('2026-11-26T09:00:00Z'));
    await third.tick();
    clock.set(at('2026-11-26T10:00:00Z'));
    await third.poll('c');
    clock.set(at('2026-11-27T09:00:00Z'));
    await third.tick();
    expect(third.titles()).toEqual(['digest 2 items late for Tue 24 Nov 09:00', 'digest 1 items']);
  });

  it('posts a digest once when the bot dies between queueing it and letting its items go', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const keyv = new CrashingKeyv();
    const adapter = new RecordingAdapter();
    const first = world(clock, keyv, adapter);
    await first.begin();
    const { subscription } = await first.subscribe({ digest: DAILY_9 });
    await first.poll('a', 'b', 'c');
    clock.set(at('2026-11-24T09:00:00Z'));
    let queued = false;
    keyv.crashAt = (key) => {
      if (key.includes(':outbox:queue:')) queued = true;
      return queued && key.includes(':held:sub:');
    };
    await expect(first.tick()).rejects.toThrow('killed');
    await first.stop();
    const second = world(clock, keyv, adapter);
    await second.begin();
    await second.tick();
    expect(second.titles()).toEqual(['digest 3 items']);
    expect((await second.held.read([subscription.id])).get(subscription.id)?.items).toEqual([]);
    clock.set(at('2026-11-25T09:00:00Z'));
    await second.tick();
    expect(second.titles()).toEqual(['digest 3 items']);
  });

  it('finishes the release it began after a crash, even when another slot passed meanwhile', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const keyv = new CrashingKeyv();
    const adapter = new RecordingAdapter();
    const first = world(clock, keyv, adapter);
    await first.begin();
    await first.subscribe({ digest: DAILY_9 });
    await first.poll('a', 'b', 'c');
    clock.set(at('2026-11-24T09:00:00Z'));
    // Dies after marking the release, before queueing its message.
    keyv.crashAt = (key) => key.includes(':outbox:');
    await expect(first.tick()).rejects.toThrow('killed');
    await first.stop();
    clock.set(at('2026-11-25T10:00:00Z'));
    const second = world(clock, keyv, adapter);
    await second.begin();
    await second.tick();
    await second.tick();
    expect(second.titles()).toEqual(['digest 3 items late for Tue 24 Nov 09:00']);
  });
});

describe('with the real digest composer', () => {
  it('writes the late digest, the quiet summary and the cap summary in the subscription zone', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock, undefined, undefined, composeDigest);
    await w.begin();
    await w.subscribe({ digest: DAILY_9, timeZone: 'Asia/Tokyo' }, 'C1');
    await w.subscribe({ quiet: { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } } }, 'C2');
    await w.subscribe({ maxPerHour: 1 }, 'C3');
    await w.poll('a', 'b', 'c', 'd', 'e', 'f', 'g');
    clock.set(at('2026-11-23T11:00:00Z'));
    await w.tick();
    clock.set(at('2026-11-23T23:00:00Z')); // quiet in UTC; 08:00 in Tokyo
    await w.poll('h', 'i', 'j', 'k', 'l', 'm');
    clock.set(at('2026-11-25T07:00:00Z')); // the bot was down through Tokyo's 09:00 (00:00 UTC) twice
    await w.tick();
    await w.tick();
    const [digest] = w.adapter.delivered('C1');
    // Since it was made (19:00 in Tokyo), not since the slot before.
    expect(digest?.title).toBe('13 new posts since Mon 23 Nov 19:00');
    expect(digest?.text).toContain('Late: this digest was due at Tue 24 Nov 09:00');
    expect(digest?.footer).toContain('times in Asia/Tokyo');
    expect(w.titles('C2').at(-1)).toBe('While quiet hours were on (22:00–07:00): 6 updates');
    expect(w.titles('C3')).toEqual(['a', 'And 6 more posts', 'h', 'And 5 more posts']);
  });

  it('releases what a cap held in a window that ended while the runner was not running', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock);
    await w.begin();
    await w.subscribe({ maxPerHour: 1 });
    await w.poll('a', 'b', 'c');
    clock.set(at('2026-11-23T14:30:00Z'));
    await w.poll('d', 'e');
    clock.set(at('2026-11-23T16:00:00Z'));
    await w.tick();
    await w.tick();
    // The 10:00 hour's two, then the 14:00 hour's one: each window's excess as its own summary.
    expect(w.titles()).toEqual(['a', 'd', 'cap 2 items', 'cap 1 items']);
  });
});

describe('what is stored', () => {
  it('stores nothing for subscriptions without a schedule', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock);
    await w.begin();
    await w.subscribe(undefined);
    expect(await w.poll('a')).toMatchObject({ queued: 1, held: 0 });
    await w.tick();
    expect(w.titles()).toEqual(['a']);
    expect(await w.held.ids()).toEqual([]);
  });

  it('deletes what a subscription held once it is removed', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock);
    await w.begin();
    const { subscription } = await w.subscribe({ digest: DAILY_9 });
    await w.poll('a', 'b');
    expect(await w.held.ids()).toEqual([subscription.id]);
    await w.subscriptions.remove(subscription.platform, subscription.channelId, subscription.id);
    await w.tick();
    expect(await w.held.ids()).toEqual([]);
    expect(await w.held.read([subscription.id])).toEqual(new Map());
    clock.set(at('2026-11-24T09:00:00Z'));
    await w.tick();
    expect(w.titles()).toEqual([]);
  });

  it('posts what a digest held when the digest is switched off', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock);
    await w.begin();
    const { subscription } = await w.subscribe({ digest: DAILY_9 });
    await w.poll('a', 'b');
    await w.keyv.set(
      'subscriptions',
      (await w.subscriptions.list()).map((s) => {
        const { schedule: _schedule, ...plain } = s;
        return plain;
      }),
    );
    await w.keyv.set('subscriptions-version', 'changed');
    await w.tick();
    expect(w.titles()).toEqual(['digest 2 items']);
    await w.tick();
    expect(await w.held.ids()).not.toContain(subscription.id);
  });
});
