import { afterEach, describe, expect, it } from 'vitest';
import { createDirectoryClient } from '../../src/directory/index.js';
import { createManualClock, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import type { FeedItem } from '../../src/feeds/feed-item.js';
import { createLiveFeed } from '../../src/feeds/live-feed.js';
import { AWKWARD_INSTANTS, SERVICE_OFFSETS } from '../support/awkward-instants.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const emulators: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function liveFeedAt(instant: string, offsetMinutes: number) {
  const clock = createManualClock(Date.parse(instant));
  const emulator = await startEmulator({ clock, v1OffsetMinutes: offsetMinutes });
  emulators.push(emulator);
  const client = createDirectoryClient({
    baseUrl: emulator.url,
    token: 'dev-token',
    clock,
    sleep: async (ms) => clock.advance(ms),
  });
  const feed = createLiveFeed({ client, clock, reminderHorizonMinutes: () => 30 });
  return { clock, emulator, feed };
}

/** The kinds of feed item (`new`, `reminder`) produced for one emulator record. */
function eventsOf(items: readonly FeedItem[], record: Record<string, unknown>): string[] {
  return items
    .filter((item) => item.id === String(record['id']))
    .map((item) => item.event)
    .sort();
}

describe('the live feed at awkward instants, against services in every offset', () => {
  const cases = AWKWARD_INSTANTS.flatMap((instant) =>
    SERVICE_OFFSETS.map(([label, minutes]) => [instant, label, minutes] as const),
  );

  it.each(cases)(
    'at %s with a service at %s: announces and reminds of an event 20 minutes away',
    async (instant, _label, minutes) => {
      const { clock, emulator, feed } = await liveFeedAt(instant, minutes);
      const seeded = await feed.poll(undefined);
      const now = clock.now();
      const soon = emulator.admin.scheduleLive({
        name: 'Office hours',
        startsAt: new Date(now + 20 * MINUTE).toISOString(),
      });
      const tomorrow = emulator.admin.scheduleLive({
        name: 'Tomorrow',
        startsAt: new Date(now + 26 * HOUR).toISOString(),
      });
      clock.advance(MINUTE);
      const { items } = await feed.poll(seeded.nextState);
      expect(eventsOf(items, soon)).toEqual(['new', 'reminder']);
      expect(eventsOf(items, tomorrow)).toEqual(['new']);
    },
  );

  it.each(cases)(
    'at %s with a service at %s: does not announce an event that had already started',
    async (instant, _label, minutes) => {
      const { clock, emulator, feed } = await liveFeedAt(instant, minutes);
      const seeded = await feed.poll(undefined);
      // The listing starts days early for any offset: what had started before the poll is not
      // upcoming, whatever day the service is on.
      const started = emulator.admin.scheduleLive({
        name: 'Already on air',
        startsAt: new Date(clock.now() - 2 * HOUR).toISOString(),
      });
      clock.advance(MINUTE);
      const { items } = await feed.poll(seeded.nextState);
      expect(eventsOf(items, started)).toEqual([]);
      expect(items).toEqual([]);
    },
  );

  it("reminds of an event announced before the service's midnight, after it", async () => {
    const { clock, emulator, feed } = await liveFeedAt('2026-11-23T07:59:00Z', -480);
    const seeded = await feed.poll(undefined);
    const event = emulator.admin.scheduleLive({
      name: 'Across midnight',
      startsAt: new Date(clock.now() + 45 * MINUTE).toISOString(),
    });
    clock.advance(MINUTE);
    const first = await feed.poll(seeded.nextState);
    expect(eventsOf(first.items, event)).toEqual(['new']);
    // 08:00 UTC is midnight at -08:00: the service's day rolls over between these polls.
    clock.advance(20 * MINUTE);
    const second = await feed.poll(first.nextState);
    expect(eventsOf(second.items, event)).toEqual(['reminder']);
  });
});

describe('the live feed in a busy directory', () => {
  it('announces an upcoming event behind more past events than its page cap holds', async () => {
    const { clock, emulator, feed } = await liveFeedAt('2026-11-23T15:00:00Z', 0);
    // The listing starts up to three days early; 300 events in the past day fill six pages,
    // more than the five a poll reads of events that matter.
    const now = clock.now();
    for (let i = 0; i < 300; i += 1)
      emulator.admin.scheduleLive({
        name: `Past ${i}`,
        startsAt: new Date(now - 20 * HOUR + i * MINUTE).toISOString(),
      });
    const seeded = await feed.poll(undefined);
    const soon = emulator.admin.scheduleLive({
      name: 'Office hours',
      startsAt: new Date(now + 20 * MINUTE).toISOString(),
    });
    clock.advance(MINUTE);
    const { items } = await feed.poll(seeded.nextState);
    expect(eventsOf(items, soon)).toEqual(['new', 'reminder']);
  });
});

describe("the live feed's recent()", () => {
  const cases = AWKWARD_INSTANTS.flatMap((instant) =>
    SERVICE_OFFSETS.map(([label, minutes]) => [instant, label, minutes] as const),
  );

  it.each(cases)(
    'at %s with a service at %s: what has not started, soonest first',
    async (instant, _label, minutes) => {
      const { clock, emulator, feed } = await liveFeedAt(instant, minutes);
      const now = clock.now();
      const schedule = (name: string, startsAt: number) =>
        String(emulator.admin.scheduleLive({ name, startsAt: new Date(startsAt).toISOString() }).id);
      const tomorrow = schedule('Tomorrow', now + 26 * HOUR);
      const started = schedule('Already on air', now - 2 * HOUR);
      const soon = schedule('Office hours', now + 20 * MINUTE);

      const recent = await feed.recent({ limit: 50 });
      const mine = recent.map((item) => item.id).filter((id) => [tomorrow, started, soon].includes(id));
      expect(mine).toEqual([soon, tomorrow]);
      expect(recent.every((item) => item.event === 'new' && item.discoveredAt === now)).toBe(true);
    },
  );

  it('reads at most the limit and leaves the poll cursor alone', async () => {
    const { clock, emulator, feed } = await liveFeedAt('2026-11-23T15:00:00Z', -480);
    const seeded = await feed.poll(undefined);
    const soon = emulator.admin.scheduleLive({
      name: 'Office hours',
      startsAt: new Date(clock.now() + 20 * MINUTE).toISOString(),
    });
    expect((await feed.recent({ limit: 1 })).length).toBeLessThanOrEqual(1);
    expect(eventsOf(await feed.recent({ limit: 50 }), soon)).toEqual(['new']);
    clock.advance(MINUTE);
    const { items } = await feed.poll(seeded.nextState);
    expect(eventsOf(items, soon)).toEqual(['new', 'reminder']);
  });
});
