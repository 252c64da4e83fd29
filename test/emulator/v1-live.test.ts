import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import { startHarness } from '../support/emulator-harness.js';

type Live = { id: number; starts_at: string | null; live_video: boolean; url: string };

describe('GET /v1/live', () => {
  it('answers 20 events by default with every spec field', async () => {
    const h = await startHarness();
    const { live_events } = (await h.get('/v1/live')).json();
    expect(live_events).toHaveLength(20);
    for (const key of [
      'id',
      'name',
      'tagline',
      'starts_at',
      'ends_at',
      'subscriber_count',
      'live_video',
      'guests',
      'twitter_username',
      'category_id',
      'background_image_url',
      'schedule_image_url',
      'url',
    ]) {
      expect(live_events[0]).toHaveProperty(key);
    }
  });

  it('skips with offset and caps per_page at 50', async () => {
    const h = await startHarness();
    const all = (await h.get('/v1/live?per_page=50')).json().live_events as Live[];
    const skipped = (await h.get('/v1/live?per_page=5&offset=3')).json().live_events as Live[];
    expect(skipped.map((e) => e.id)).toEqual(all.slice(3, 8).map((e) => e.id));
    expect((await h.get('/v1/live?per_page=60')).status).toBe(400);
  });

  it('selects past, upcoming and undated events with older, newer and search[date]=false', async () => {
    const h = await startHarness();
    const today = new Date(h.clock.now() - 8 * 3_600_000).toISOString().slice(0, 10);
    const dayStart = Date.parse(`${today}T00:00:00-08:00`);
    const older = (await h.get(`/v1/live?older=${today}&per_page=50`)).json().live_events as Live[];
    expect(older.length).toBeGreaterThan(0);
    expect(older.every((e) => e.starts_at !== null && Date.parse(e.starts_at) < dayStart)).toBe(true);
    const newer = (await h.get(`/v1/live?newer=${today}&per_page=50`)).json().live_events as Live[];
    expect(newer.some((e) => e.starts_at === null)).toBe(true);
    expect(newer.filter((e) => e.starts_at !== null).every((e) => Date.parse(e.starts_at!) >= dayStart)).toBe(
      true,
    );
    const undated = (await h.get('/v1/live?search[date]=false&per_page=50')).json().live_events as Live[];
    expect(undated.length).toBeGreaterThan(0);
    expect(undated.every((e) => e.starts_at === null)).toBe(true);
  });

  it('selects a month with search[date]=YYYY-MM and on-camera events with search[live_video]', async () => {
    const h = await startHarness();
    const event = h.emulator.admin.scheduleLive({
      name: 'March show',
      startsAt: '2027-03-10T18:00:00Z',
      liveVideo: true,
    });
    const march = (await h.get('/v1/live?search[date]=2027-03&per_page=50')).json().live_events as Live[];
    expect(march.map((e) => e.id)).toContain(event.id);
    expect(march.every((e) => e.starts_at?.startsWith('2027-03'))).toBe(true);
    const onCamera = (await h.get('/v1/live?search[live_video]=true&per_page=50')).json()
      .live_events as Live[];
    expect(onCamera.length).toBeGreaterThan(0);
    expect(onCamera.every((e) => e.live_video)).toBe(true);
    const slug = new URL(event.url as string).pathname.split('/').at(-1);
    const bySlug = (await h.get(`/v1/live?search[slug]=${slug}`)).json().live_events as Live[];
    expect(bySlug.map((e) => e.id)).toEqual([event.id]);
  });

  it.each([
    ['+14:00', 14 * 60],
    ['-12:00', -12 * 60],
    ['+05:30', 5 * 60 + 30],
  ])(
    'a service at %s shows that offset and reads newer and search[date] as its own days',
    async (text, minutes) => {
      // 2026-11-30 23:30 UTC: already December at +14:00 and +05:30, still 30 November at -12:00.
      const now = Date.parse('2026-11-30T23:30:00Z');
      const h = await startHarness({ clock: createManualClock(now), v1OffsetMinutes: minutes });
      const event = h.emulator.admin.scheduleLive({ name: 'Edge', startsAt: '2026-11-30T23:45:00Z' });
      expect(String(event.starts_at).endsWith(text)).toBe(true);
      expect(Date.parse(String(event.starts_at))).toBe(Date.parse('2026-11-30T23:45:00Z'));
      const localDay = String(event.starts_at).slice(0, 10);
      const localMonth = localDay.slice(0, 7);
      expect(localMonth).toBe(minutes > 0 ? '2026-12' : '2026-11');
      const ids = async (query: string) =>
        ((await h.get(`/v1/live?per_page=50&${query}`)).json().live_events as Live[]).map((e) => e.id);
      // `newer` is that day from the service's midnight on: its own day lists it, the next day does not.
      const nextDay = new Date(Date.parse(`${localDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(await ids(`newer=${localDay}`)).toContain(event.id);
      expect(await ids(`newer=${nextDay}`)).not.toContain(event.id);
      expect(await ids(`search[date]=${localMonth}`)).toContain(event.id);
      expect(await ids(`search[date]=${minutes > 0 ? '2026-11' : '2026-12'}`)).not.toContain(event.id);
    },
  );

  it('accepts limit without any effect', async () => {
    const h = await startHarness();
    const plain = (await h.get('/v1/live')).text;
    const limited = await h.get('/v1/live?limit=3');
    expect(limited.status).toBe(200);
    expect(limited.text).toBe(plain);
  });

  it.each([
    ['older=2026-13-01', 'older'],
    ['newer=yesterday', 'newer'],
    ['search[date]=2026-1', 'search[date]'],
    ['search[live_video]=maybe', 'search[live_video]'],
    ['offset=-1', 'offset'],
  ])('answers 400 for %s', async (query, name) => {
    const h = await startHarness();
    const reply = await h.get(`/v1/live?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.json()).toMatchObject({ error: 'invalid_parameter' });
    expect(reply.json().error_description).toContain(name);
  });
});
