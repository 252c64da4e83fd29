import { afterEach, describe, expect, it } from 'vitest';
import { AWKWARD_INSTANTS, SERVICE_OFFSETS } from '../support/awkward-instants.js';
import { type Harness, startHarness } from '../support/command-harness.js';

const MINUTE = 60_000;
const MANAGER = { canManageChannel: true };

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

async function harnessAt(instant: string, offsetMinutes = -480): Promise<Harness> {
  const h = await startHarness({
    startMs: Date.parse(instant),
    emulator: { v1OffsetMinutes: offsetMinutes },
    handler: { userRateLimit: { perMinute: 1000 } },
  });
  harnesses.push(h);
  return h;
}

const everyInstantAndOffset = AWKWARD_INSTANTS.flatMap((instant) =>
  SERVICE_OFFSETS.map(([label, minutes]) => [instant, label, minutes] as const),
);

describe('lookups and previews that turn an instant into a day', () => {
  it.each(everyInstantAndOffset)(
    '`live` at %s with a service at %s lists the event 20 minutes away first',
    async (instant, _label, minutes) => {
      const h = await harnessAt(instant, minutes);
      h.emulator.admin.scheduleLive({
        name: 'Office hours',
        startsAt: new Date(h.clock.now() + 20 * MINUTE).toISOString(),
      });
      const reply = await h.run('live');
      expect(reply.text).toBe('Upcoming live events');
      expect(reply.messages[0]?.title).toBe('Office hours');
      // Nothing that already started slips in from the early listing day.
      for (const message of reply.messages) {
        expect(Date.parse(message.timestamp ?? '')).toBeGreaterThanOrEqual(h.clock.now());
      }
    },
  );

  it.each(everyInstantAndOffset)(
    '`subscribe live` at %s with a service at %s previews the event 20 minutes away',
    async (instant, _label, minutes) => {
      const h = await harnessAt(instant, minutes);
      h.emulator.admin.scheduleLive({
        name: 'Office hours',
        startsAt: new Date(h.clock.now() + 20 * MINUTE).toISOString(),
      });
      const reply = await h.run('subscribe live --remind 30', MANAGER);
      expect(reply.error).toBeUndefined();
      expect(reply.messages.map((m) => m.title)).toEqual(['Office hours']);
    },
  );

  it.each(SERVICE_OFFSETS)(
    '`live YYYY-MM` is a UTC month with a service at %s, also across a leap day',
    async (_label, minutes) => {
      const h = await harnessAt('2026-11-23T00:30:00Z', minutes);
      const at = (name: string, startsAt: string) => h.emulator.admin.scheduleLive({ name, startsAt });
      at('Last of November', '2027-11-30T23:15:00Z');
      at('First of December', '2027-12-01T00:45:00Z');
      at('Leap day', '2028-02-29T23:15:00Z');
      at('First of March', '2028-03-01T00:45:00Z');
      const titles = async (text: string) => (await h.run(text)).messages.map((m) => m.title);
      expect(await titles('live 2027-11')).toEqual(['Last of November']);
      expect(await titles('live 2027-12')).toEqual(['First of December']);
      expect(await titles('live 2028-02')).toEqual(['Leap day']);
      expect(await titles('live 2028-03')).toEqual(['First of March']);
      expect((await h.run('live 2027-12')).text).toBe('Live events in 2027-12 (UTC)');
      expect((await h.run('live 2027-10')).text).toBe('No live events in 2027-10 (UTC).');
    },
  );

  it('`posts YYYY-MM-DD` keeps a post made at 00:00:00.000 UTC in its own day', async () => {
    const h = await harnessAt('2026-12-01T00:00:00.000Z');
    h.emulator.admin.addPost({ name: 'Midnight launch', votesCount: 100_000 });
    expect((await h.run('posts 2026-12-01 --top 1')).messages.map((m) => m.title)).toEqual([
      'Midnight launch',
    ]);
    const dayBefore = await h.run('posts 2026-11-30 --top 10');
    expect(dayBefore.messages.map((m) => m.title)).not.toContain('Midnight launch');
  });

  it('`posts today` is the UTC day, on both sides of midnight', async () => {
    const h = await harnessAt('2026-12-31T23:58:00Z');
    h.emulator.admin.addPost({ name: 'Last launch of the year', votesCount: 100_000 });
    const before = await h.run('posts today --top 1');
    expect(before.text).toBe('Top 1 post of 2026-12-31 (UTC) by votes');
    expect(before.messages.map((m) => m.title)).toEqual(['Last launch of the year']);
    h.clock.advance(3 * MINUTE);
    const after = await h.run('posts today --top 10');
    expect(after.text).toBe('No posts on 2027-01-01 yet.');
  });
});

describe('`live` in a busy directory', () => {
  it('lists the next event behind more past events than its page cap holds', async () => {
    const h = await harnessAt('2026-11-23T15:00:00Z', 0);
    const now = h.clock.now();
    // 160 events in the past day: more pages before the window than the three a person waits for.
    for (let i = 0; i < 160; i += 1)
      h.emulator.admin.scheduleLive({
        name: `Past ${i}`,
        startsAt: new Date(now - 20 * 60 * MINUTE + i * MINUTE).toISOString(),
      });
    h.emulator.admin.scheduleLive({
      name: 'Office hours',
      startsAt: new Date(now + 20 * MINUTE).toISOString(),
    });
    const reply = await h.run('live');
    expect(reply.text, JSON.stringify(reply).slice(0, 400)).toBe('Upcoming live events');
    expect(reply.messages[0]?.title).toBe('Office hours');
  });
});
