import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../../src/emulator/index.js';
import type { ScheduleOptions } from '../../src/schedule/schedule-options.js';
import { postItem, scheduleWorld } from '../support/schedule-harness.js';

/**
 * Digests on a manual clock, at fixed instants: the process's own TZ and the hour the test runs
 * at never matter (the time sweep runs this file under both). Expected instants are written in
 * UTC beside the local time they are.
 */

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops) await stop();
  stops = [];
});

function world(clock: ManualClock) {
  const w = scheduleWorld(clock);
  stops.push(() => w.stop());
  return w;
}

/**
 * Runs the schedule runner as its timer would: tick, jump the clock to the instant it asks to be
 * woken at, tick again, until `until`. Returns each message posted with the clock's time then.
 */
async function drive(w: ReturnType<typeof world>, clock: ManualClock, until: number) {
  const posted: { title: string; at: string }[] = [];
  let seen = w.adapter.deliveries.length;
  for (let guard = 0; guard < 10_000; guard += 1) {
    const { nextAt } = await w.tick();
    for (const d of w.adapter.deliveries.slice(seen))
      posted.push({ title: d.message.title, at: iso(clock.now()) });
    seen = w.adapter.deliveries.length;
    const next = nextAt ?? Number.POSITIVE_INFINITY;
    if (next > until) {
      clock.set(until);
      return posted;
    }
    clock.set(Math.max(next, clock.now()));
  }
  throw new Error('the runner never settled');
}

async function digestEvery(schedule: ScheduleOptions, from: string, until: string) {
  const clock = createManualClock(at(from));
  const w = world(clock);
  await w.begin();
  await w.subscribe({ digestEmpty: true, ...schedule });
  return drive(w, clock, at(until));
}

describe('digest slots in a zone', () => {
  // Daily America/New_York digests across its 2026 clock changes (spring forward 8 March,
  // fall back 1 November): each runs once a night, at its local time or just after a gap.
  it.each([
    {
      title:
        'posts a 09:00 America/New_York digest at 09:00 local on both sides of the spring-forward switch',
      time: { hour: 9, minute: 0 },
      from: '2026-03-06T20:00:00Z',
      until: '2026-03-10T00:00:00Z',
      expected: [
        '2026-03-07T14:00:00.000Z', // Sat 09:00 EST
        '2026-03-08T13:00:00.000Z', // Sun 09:00 EDT, the day clocks sprang forward
        '2026-03-09T13:00:00.000Z', // Mon 09:00 EDT
      ],
    },
    {
      title: 'posts a 09:00 America/New_York digest at 09:00 local on both sides of the fall-back switch',
      time: { hour: 9, minute: 0 },
      from: '2026-10-30T20:00:00Z',
      until: '2026-11-03T00:00:00Z',
      expected: [
        '2026-10-31T13:00:00.000Z', // Sat 09:00 EDT
        '2026-11-01T14:00:00.000Z', // Sun 09:00 EST, the day clocks fell back
        '2026-11-02T14:00:00.000Z', // Mon 09:00 EST
      ],
    },
    {
      title: 'runs a 02:30 schedule once on the spring-forward night, just after the gap',
      time: { hour: 2, minute: 30 },
      from: '2026-03-07T00:00:00Z',
      until: '2026-03-09T12:00:00Z',
      expected: [
        '2026-03-07T07:30:00.000Z', // 02:30 EST
        '2026-03-08T07:30:00.000Z', // 02:30 does not exist: 03:30 EDT, once
        '2026-03-09T06:30:00.000Z', // 02:30 EDT
      ],
    },
    {
      title: 'runs a 02:30 schedule once on the fall-back night',
      time: { hour: 2, minute: 30 },
      from: '2026-10-31T12:00:00Z',
      until: '2026-11-01T12:00:00Z',
      expected: ['2026-11-01T07:30:00.000Z'], // 02:30 EST
    },
    {
      title: 'runs a 01:30 schedule once on the fall-back night, at the first of its two 01:30s',
      time: { hour: 1, minute: 30 },
      from: '2026-10-31T12:00:00Z',
      until: '2026-11-01T12:00:00Z',
      expected: ['2026-11-01T05:30:00.000Z'], // 01:30 EDT; 01:30 EST an hour later is not a second run
    },
  ])('$title', async ({ time, from, until, expected }) => {
    const posted = await digestEvery(
      { digest: { every: 'daily', at: time }, timeZone: 'America/New_York' },
      from,
      until,
    );
    expect(posted.map((p) => p.at)).toEqual(expected);
  });

  it('posts on 29 February and across the month and year ends', async () => {
    const leap = await digestEvery(
      { digest: { every: 'daily', at: { hour: 23, minute: 30 } } },
      '2028-02-27T12:00:00Z',
      '2028-03-02T00:00:00Z',
    );
    expect(leap.map((p) => p.at)).toEqual([
      '2028-02-27T23:30:00.000Z',
      '2028-02-28T23:30:00.000Z',
      '2028-02-29T23:30:00.000Z',
      '2028-03-01T23:30:00.000Z',
    ]);
    const yearEnd = await digestEvery(
      { digest: { every: 'daily', at: { hour: 0, minute: 0 } }, timeZone: 'Pacific/Kiritimati' },
      '2026-12-30T00:00:00Z',
      '2027-01-01T00:00:00Z',
    );
    // Midnight at +14:00 is 10:00 UTC the day before.
    expect(yearEnd.map((p) => p.at)).toEqual(['2026-12-30T10:00:00.000Z', '2026-12-31T10:00:00.000Z']);
  });

  it('posts a weekly digest once a week, on its day', async () => {
    const posted = await digestEvery(
      { digest: { every: 'weekly', day: 'mon', at: { hour: 9, minute: 0 } }, timeZone: 'Europe/Berlin' },
      '2026-03-18T00:00:00Z',
      '2026-04-08T00:00:00Z',
    );
    expect(posted.map((p) => p.at)).toEqual([
      '2026-03-23T08:00:00.000Z', // 09:00 CET
      '2026-03-30T07:00:00.000Z', // 09:00 CEST: Europe switched on the 29th
      '2026-04-06T07:00:00.000Z',
    ]);
  });

  it('posts an hourly digest at each local hour in Asia/Kolkata (+05:30)', async () => {
    const posted = await digestEvery(
      { digest: { every: 'hourly' }, timeZone: 'Asia/Kolkata' },
      '2026-11-23T18:10:00Z',
      '2026-11-23T21:00:00Z',
    );
    expect(posted.map((p) => p.at)).toEqual([
      '2026-11-23T18:30:00.000Z', // 00:00 on 24 Nov in Kolkata
      '2026-11-23T19:30:00.000Z',
      '2026-11-23T20:30:00.000Z',
    ]);
  });
});

/**
 * An hourly digest of 25 items (three parts of the stand-in's ten) released at 11:00 into C1,
 * on a platform that keeps replies in threads or not, whose threads may refuse every reply.
 */
async function hourlyDigestOf25(platform: { threads: boolean; refused?: boolean }) {
  const clock = createManualClock(at('2026-11-23T10:00:00Z'));
  const w = world(clock);
  w.adapter.repliesInThreads = platform.threads;
  if (platform.refused) w.adapter.refusingThreads.add('C1');
  await w.begin();
  const { subscription } = await w.subscribe({ digest: { every: 'hourly' } });
  await w.poll(...Array.from({ length: 25 }, (_, i) => `x${i}`));
  clock.set(at('2026-11-23T11:00:00Z'));
  await w.tick();
  await w.tick();
  return { w, subscription };
}

describe('what a digest holds', () => {
  it('holds every item for the digest, posts none individually, and posts one digest of them', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock);
    await w.begin();
    await w.subscribe({ digest: { every: 'daily', at: { hour: 9, minute: 0 } }, top: 2 });
    const summary = await w.poll('a', 'b', 'c');
    expect(summary).toMatchObject({ queued: 0, held: 3 });
    clock.set(at('2026-11-24T08:59:59Z'));
    await w.tick();
    expect(w.titles()).toEqual([]);
    clock.set(at('2026-11-24T09:00:00Z'));
    await w.tick();
    expect(w.titles()).toEqual(['digest 3 items']);
    // Released: the next day has nothing to say, and says nothing (no --digest-empty).
    clock.set(at('2026-11-25T09:00:00Z'));
    await w.tick();
    expect(w.titles()).toEqual(['digest 3 items']);
  });

  it('keeps at most 100 held items per subscription, the best by votes for --top, and counts the rest', async () => {
    const clock = createManualClock(at('2026-11-23T10:00:00Z'));
    const w = world(clock);
    await w.begin();
    const { subscription } = await w.subscribe({
      digest: { every: 'daily', at: { hour: 9, minute: 0 } },
      top: 5,
    });

    for (let batch = 0; batch < 3; batch += 1)
      await w.poll(
        ...Array.from({ length: 50 }, (_, i) => postItem(`p${batch * 50 + i}`, clock.now(), batch * 50 + i)),
      );
    const state = (await w.held.read([subscription.id])).get(subscription.id);
    expect(state?.items).toHaveLength(100);
    expect(state?.omitted.digest).toBe(50);
    expect(Math.min(...(state?.items ?? []).map((item) => item.votes ?? 0))).toBe(50);
    clock.set(at('2026-11-24T09:00:00Z'));
    await w.tick();
    const after = (await w.held.read([subscription.id])).get(subscription.id);
    expect(after?.items).toEqual([]);
    expect(after?.omitted).toEqual({});
    // The top five of all 150, whatever was let go.
    expect(w.adapter.delivered('C1')[0]?.text?.split('\n')).toEqual(['p149', 'p148', 'p147', 'p146', 'p145']);
  });

  it('posts a long digest as one message, its later parts as replies in its thread, each once', async () => {
    const { w } = await hourlyDigestOf25({ threads: true });
    const [head, ...replies] = w.adapter.deliveries;
    expect(head?.thread).toBeUndefined();
    expect(replies.map((d) => [d.message.title, d.thread?.parentMessageId])).toEqual([
      ['digest 25 items 2/3', 'm1'],
      ['digest 25 items 3/3', 'm1'],
    ]);
    expect(w.titles()).toEqual(['digest 25 items 1/3', 'digest 25 items 2/3', 'digest 25 items 3/3']);
  });

  it('where replies do not live in threads, posts one message counting the rest and where to see them', async () => {
    const { w, subscription } = await hourlyDigestOf25({ threads: false });
    expect(w.adapter.deliveries).toHaveLength(1);
    expect(w.adapter.deliveries[0]?.message.text?.split('\n').at(-1)).toBe(
      `and 15 more: /directory digest ${subscription.id} 2`,
    );
    // /directory digest shows every part, numbered, whatever the channel saw.
    const stored = await w.held.latest(subscription.id);
    expect(stored?.parts.map((part) => part.title)).toEqual([
      'digest 25 items 1/3',
      'digest 25 items 2/3',
      'digest 25 items 3/3',
    ]);
  });

  it('edits the one message to count the rest when its thread refuses them, and posts nothing else', async () => {
    const { w, subscription } = await hourlyDigestOf25({ threads: true, refused: true });
    expect(w.adapter.deliveries.map((d) => d.message.title)).toEqual(['digest 25 items 1/3']);
    expect(w.adapter.edits.map((e) => [e.messageId, e.message.text?.split('\n').at(-1)])).toEqual([
      ['m1', `and 15 more: /directory digest ${subscription.id} 2`],
      ['m1', `and 15 more: /directory digest ${subscription.id} 2`],
    ]);
    expect(w.outbox.size()).toBe(0);
    // Why, for /directory status; the subscription is not paused.
    const [stored] = await w.subscriptions.list();
    expect(stored?.threadProblem?.code).toBe('thread_refused');
    expect(stored?.paused).toBeUndefined();
  });
});
