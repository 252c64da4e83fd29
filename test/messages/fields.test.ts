import { describe, expect, it } from 'vitest';
import { formatDay, formatInstant, formatLeadTime } from '../../src/messages/fields.js';

// Every time the bot writes is UTC, built from the instant, never from the host's zone: these
// run in the time sweep under TZ=Pacific/Kiritimati, Pacific/Pago_Pago and Asia/Kolkata.
describe('message fields around midnight', () => {
  it('writes an instant in UTC whatever offset it was given in', () => {
    expect(formatInstant('2026-11-30T23:30:00.000-08:00')).toBe('Tue 1 Dec 2026, 07:30 UTC');
    expect(formatInstant('2026-12-01T13:30:00.000+14:00')).toBe('Mon 30 Nov 2026, 23:30 UTC');
    expect(formatInstant('2028-02-29T23:59:00Z')).toBe('Tue 29 Feb 2028, 23:59 UTC');
    expect(formatInstant('2026-11-01T01:30:00.000-07:00')).toBe('Sun 1 Nov 2026, 08:30 UTC');
    expect(formatInstant('2026-11-01T01:30:00.000-08:00')).toBe('Sun 1 Nov 2026, 09:30 UTC');
  });

  it('takes the UTC day of an instant, and a bare date as the directory named it', () => {
    expect(formatDay('2026-11-30T20:00:00.000-08:00')).toBe('1 Dec 2026');
    expect(formatDay('2026-12-01T09:59:00.000+14:00')).toBe('30 Nov 2026');
    // A V1 `day` is the launch day in the directory's own calendar: shown as given.
    expect(formatDay('2028-02-29')).toBe('29 Feb 2028');
    expect(formatDay('2026-12-31')).toBe('31 Dec 2026');
  });

  it('measures lead times across midnight and DST nights by the clock, not the calendar', () => {
    const start = Date.parse('2026-03-08T10:30:00Z'); // 03:30 PDT, just after clocks sprang forward
    expect(formatLeadTime(start - Date.parse('2026-03-08T09:45:00Z'))).toBe('in 45 minutes');
    expect(formatLeadTime(Date.parse('2027-01-01T00:10:00Z') - Date.parse('2026-12-31T23:55:00Z'))).toBe(
      'in 15 minutes',
    );
  });
});
