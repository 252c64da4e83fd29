import { describe, expect, it } from 'vitest';
import {
  buildSchedule,
  formatDigestRecurrence,
  formatQuietHours,
  type ScheduleInput,
  sameSchedule,
  scheduleOptionValues,
} from '../../src/schedule/parse-schedule.js';
import { checkTimeZone, suggestTimeZones } from '../../src/schedule/time-zones.js';

const problem = (input: ScheduleInput, feed = 'posts') => {
  const result = buildSchedule(input, feed);
  if (result.ok) throw new Error(`expected a problem for ${JSON.stringify(input)}`);
  return result;
};

describe('schedule options', () => {
  it('reads every option into the stored schedule', () => {
    expect(
      buildSchedule({ digest: 'daily@09:00', top: 5, 'digest-empty': true, tz: 'asia/tokyo' }, 'posts'),
    ).toEqual({
      ok: true,
      schedule: {
        digest: { every: 'daily', at: { hour: 9, minute: 0 } },
        top: 5,
        digestEmpty: true,
        timeZone: 'Asia/Tokyo',
      },
    });
    expect(
      buildSchedule(
        { quiet: '22:00-07:00', 'quiet-strict': 'true', 'max-per-hour': '10', 'max-per-day': 50 },
        'live',
      ),
    ).toEqual({
      ok: true,
      schedule: {
        quiet: { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } },
        quietStrict: true,
        maxPerHour: 10,
        maxPerDay: 50,
      },
    });
    expect(buildSchedule({ digest: 'Weekly@Monday-9:30' }, 'comments')).toEqual({
      ok: true,
      schedule: { digest: { every: 'weekly', day: 'mon', at: { hour: 9, minute: 30 } } },
    });
    expect(buildSchedule({ digest: 'hourly' }, 'comments')).toEqual({
      ok: true,
      schedule: { digest: { every: 'hourly' } },
    });
  });

  it('answers no schedule when no option is given, and switches set to false count as not given', () => {
    expect(buildSchedule({}, 'posts')).toEqual({ ok: true, schedule: undefined });
    expect(buildSchedule({ 'digest-empty': false, 'quiet-strict': false }, 'posts')).toEqual({
      ok: true,
      schedule: undefined,
    });
  });

  it('refuses an impossible time and names the accepted range', () => {
    expect(problem({ digest: 'daily@25:00' })).toEqual({
      ok: false,
      option: 'digest',
      problem: '--digest: 25:00 is not a time of day (00:00 to 23:59).',
    });
    expect(problem({ quiet: '22:00-24:00' }).problem).toBe(
      '--quiet: 24:00 is not a time of day (00:00 to 23:59).',
    );
    expect(problem({ digest: 'daily@09:60' }).problem).toContain('00:00 to 23:59');
  });

  it('refuses a digest recurrence it cannot read, showing the forms it takes', () => {
    expect(problem({ digest: 'every morning' }).problem).toBe(
      '--digest expects hourly, daily@HH:MM or weekly@ddd-HH:MM (like daily@09:00 or weekly@mon-09:00), got "every morning".',
    );
    expect(problem({ digest: 'weekly@mox-09:00' }).problem).toBe(
      '--digest: "mox" is not a day (mon, tue, wed, thu, fri, sat, sun).',
    );
    expect(problem({ digest: 'daily' }).option).toBe('digest');
  });

  it('refuses a quiet window of zero length', () => {
    expect(problem({ quiet: '22:00-22:00' })).toEqual({
      ok: false,
      option: 'quiet',
      problem: '--quiet: 22:00-22:00 is empty: the window must end at another time than it starts.',
    });
    expect(problem({ quiet: '22:00' }).problem).toBe(
      '--quiet expects HH:MM-HH:MM (like 22:00-07:00), got "22:00".',
    );
  });

  it('refuses --top 0 and --top 500 with the range 1 to 50', () => {
    for (const top of [0, 500, -3]) {
      expect(problem({ digest: 'daily@09:00', top })).toEqual({
        ok: false,
        option: 'top',
        problem: `--top must be a whole number from 1 to 50, got "${top}".`,
      });
    }
    expect(problem({ 'max-per-hour': 0 }).problem).toBe(
      '--max-per-hour must be a whole number from 1 to 1000, got "0".',
    );
    expect(problem({ 'max-per-day': '1e3' }).problem).toBe(
      '--max-per-day must be a whole number from 1 to 10000, got "1e3".',
    );
  });

  it('refuses an unknown zone and suggests the real one', () => {
    expect(problem({ digest: 'hourly', tz: 'Europe/Berln' })).toEqual({
      ok: false,
      option: 'tz',
      problem:
        '--tz: "Europe/Berln" is not an IANA time zone (like Europe/Berlin, America/New_York or UTC). Did you mean Europe/Berlin?',
    });
    expect(problem({ digest: 'hourly', tz: '+02:00' }).problem).not.toContain('Did you mean');
  });

  it('refuses options that mean nothing alone or for the feed', () => {
    expect(problem({ top: 5 }).problem).toBe("--top picks a digest's best items: give it with --digest.");
    expect(problem({ digest: 'hourly', top: 5 }, 'comments').problem).toBe(
      '--top ranks posts by votes: it applies to the posts feed only, not comments.',
    );
    expect(problem({ 'digest-empty': true }).option).toBe('digest-empty');
    expect(problem({ 'quiet-strict': true }, 'live').problem).toBe(
      '--quiet-strict holds live-event reminders in quiet hours: give it with --quiet.',
    );
    expect(problem({ quiet: '22:00-07:00', 'quiet-strict': true }, 'posts').option).toBe('quiet-strict');
    expect(problem({ digest: 'hourly', 'max-per-hour': 3 }).option).toBe('max-per-hour');
    expect(problem({ 'max-per-hour': 10, 'max-per-day': 5 }).problem).toBe(
      '--max-per-day (5) is below --max-per-hour (10): give the day at least as many.',
    );
    expect(problem({ tz: 'Europe/Berlin' }).option).toBe('tz');
  });

  it('names options the way SUBSCRIPTIONS spells them when asked to', () => {
    const result = buildSchedule({ top: '3' }, 'posts', (name) => name);
    expect(result).toEqual({
      ok: false,
      option: 'top',
      problem: "top picks a digest's best items: give it with digest.",
    });
  });

  it('writes a schedule back as the options that set it', () => {
    const parsed = buildSchedule(
      { digest: 'weekly@fri-17:30', top: '10', quiet: '23:00-06:30', tz: 'UTC' },
      'posts',
    );
    if (!parsed.ok || parsed.schedule === undefined) throw new Error('expected a schedule');
    expect(scheduleOptionValues(parsed.schedule)).toEqual([
      ['digest', 'weekly@fri-17:30'],
      ['top', '10'],
      ['quiet', '23:00-06:30'],
      ['tz', 'UTC'],
    ]);
    expect(formatDigestRecurrence({ every: 'daily', at: { hour: 7, minute: 5 } })).toBe('daily@07:05');
    expect(formatQuietHours({ from: { hour: 0, minute: 0 }, to: { hour: 6, minute: 0 } })).toBe(
      '00:00-06:00',
    );
    expect(sameSchedule(undefined, {})).toBe(true);
    expect(sameSchedule(parsed.schedule, { ...parsed.schedule, top: 11 })).toBe(false);
  });
});

describe('IANA time zones', () => {
  it('takes a zone in any case and stores it in its own spelling', () => {
    expect(checkTimeZone('europe/berlin')).toEqual({ ok: true, zone: 'Europe/Berlin' });
    expect(checkTimeZone('AMERICA/NEW_YORK')).toEqual({ ok: true, zone: 'America/New_York' });
    expect(checkTimeZone('utc')).toEqual({ ok: true, zone: 'UTC' });
    expect(checkTimeZone('Etc/GMT+5')).toEqual({ ok: true, zone: 'Etc/GMT+5' });
  });

  it('suggests the zone of a mistyped or bare city name', () => {
    expect(suggestTimeZones('Europe/Berln')).toEqual(['Europe/Berlin']);
    expect(suggestTimeZones('Asia/Tokio')).toEqual(['Asia/Tokyo']);
    expect(suggestTimeZones('Amercia/New_York')).toEqual(['America/New_York']);
    expect(suggestTimeZones('new york')).toEqual(['America/New_York']);
    expect(checkTimeZone('Berlin')).toEqual({
      ok: false,
      problem:
        '"Berlin" is not an IANA time zone (like Europe/Berlin, America/New_York or UTC). Did you mean Europe/Berlin?',
    });
  });

  it('refuses offsets, abbreviations and nonsense without a wild guess', () => {
    for (const input of ['+02:00', 'CEST', 'Mars/Olympus', '', 'a'.repeat(300)]) {
      const result = checkTimeZone(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problem).not.toContain('Did you mean');
    }
  });
});
