import {
  type DigestRecurrence,
  type LocalTime,
  type QuietHours,
  SCHEDULE_LIMITS,
  type ScheduleOptions,
  WEEKDAYS,
  type Weekday,
} from './schedule-options.js';
import { checkTimeZone } from './time-zones.js';

/**
 * The schedule options as typed (`/directory subscribe … --digest daily@09:00 --top 5`) or
 * written in SUBSCRIPTIONS (`digest=daily@09:00&top=5`): checked, combined and turned into the
 * stored `ScheduleOptions`, with every problem a sentence naming the option and what it accepts.
 * One parser for both, so a command and the variable can never disagree.
 */

/** The options' names, as `/directory subscribe` spells them (`--max-per-hour`). */
export const SCHEDULE_OPTION_NAMES = [
  'digest',
  'top',
  'digest-empty',
  'quiet',
  'quiet-strict',
  'max-per-hour',
  'max-per-day',
  'tz',
] as const;
export type ScheduleOptionName = (typeof SCHEDULE_OPTION_NAMES)[number];

/** Raw values by option name; numbers may still be text (SUBSCRIPTIONS), switches booleans. */
export type ScheduleInput = Partial<Record<ScheduleOptionName, string | number | boolean>>;

export type ScheduleCheck =
  | { ok: true; schedule: ScheduleOptions | undefined }
  | { ok: false; problem: string; option: ScheduleOptionName };

/** How a problem names an option: `--top` for the command, `top` for SUBSCRIPTIONS. */
export type OptionLabel = (name: ScheduleOptionName) => string;
export const flagLabel: OptionLabel = (name) => `--${name}`;

export const DIGEST_FORMS = 'hourly, daily@HH:MM or weekly@ddd-HH:MM (like daily@09:00 or weekly@mon-09:00)';
export const QUIET_FORM = 'HH:MM-HH:MM (like 22:00-07:00)';

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `09:00`, `9:00`: a wall-clock time, 00:00 to 23:59. */
export function parseLocalTime(text: string): Parsed<LocalTime> {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return { ok: false, problem: `"${shorten(text)}" is not a time HH:MM` };
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23 || minute > 59)
    return { ok: false, problem: `${text.trim()} is not a time of day (00:00 to 23:59)` };
  return { ok: true, value: { hour, minute } };
}

/** `hourly`, `daily@09:00`, `weekly@mon-09:00` (a day's first three letters or its full name). */
export function parseDigestRecurrence(text: string): Parsed<DigestRecurrence> {
  const value = text.trim().toLowerCase();
  if (value === 'hourly') return { ok: true, value: { every: 'hourly' } };
  const daily = /^daily@(.+)$/.exec(value);
  if (daily) {
    const at = parseLocalTime(daily[1] ?? '');
    return at.ok ? { ok: true, value: { every: 'daily', at: at.value } } : at;
  }
  const weekly = /^weekly@([a-z]+)-(.+)$/.exec(value);
  if (weekly) {
    const day = WEEKDAYS.find(
      (d) => (weekly[1] ?? '').startsWith(d) && fullDayName(d).startsWith(weekly[1] ?? ''),
    );
    if (day === undefined)
      return { ok: false, problem: `"${shorten(weekly[1] ?? '')}" is not a day (${WEEKDAYS.join(', ')})` };
    const at = parseLocalTime(weekly[2] ?? '');
    return at.ok ? { ok: true, value: { every: 'weekly', day, at: at.value } } : at;
  }
  return { ok: false, problem: `expects ${DIGEST_FORMS}, got "${shorten(text)}"` };
}

/** `22:00-07:00`: may span midnight; never empty. */
export function parseQuietHours(text: string): Parsed<QuietHours> {
  const parts = /^([^-–]+)[-–]([^-–]+)$/.exec(text.trim());
  if (!parts) return { ok: false, problem: `expects ${QUIET_FORM}, got "${shorten(text)}"` };
  const from = parseLocalTime(parts[1] ?? '');
  if (!from.ok) return from;
  const to = parseLocalTime(parts[2] ?? '');
  if (!to.ok) return to;
  if (from.value.hour === to.value.hour && from.value.minute === to.value.minute) {
    return {
      ok: false,
      problem: `${formatLocalTime(from.value)}-${formatLocalTime(to.value)} is empty: the window must end at another time than it starts`,
    };
  }
  return { ok: true, value: { from: from.value, to: to.value } };
}

/**
 * Checks every given option, then the combination and the feed: `feed` is the subscription's
 * (`--top` ranks posts by votes; `--quiet-strict` is about live-event reminders). Answers no
 * schedule when none of the options is given; a problem names the first option that is wrong.
 */
export function buildSchedule(
  input: ScheduleInput,
  feed: string,
  label: OptionLabel = flagLabel,
): ScheduleCheck {
  const checked = checkSchedule(input, feed, label);
  const [first] = checked.problems;
  if (first !== undefined) return { ok: false, ...first };
  return { ok: true, schedule: checked.schedule };
}

/**
 * Every problem of the given options, each a sentence naming its option (SUBSCRIPTIONS lists them
 * all at once): each value's own check, and when every value is fine, how they combine.
 */
export function scheduleProblems(
  input: ScheduleInput,
  feed: string,
  label: OptionLabel = flagLabel,
): string[] {
  return checkSchedule(input, feed, label).problems.map((p) => p.problem);
}

type ScheduleProblem = { option: ScheduleOptionName; problem: string };

function checkSchedule(
  input: ScheduleInput,
  feed: string,
  label: OptionLabel,
): { schedule: ScheduleOptions | undefined; problems: ScheduleProblem[] } {
  const problems: ScheduleProblem[] = [];
  const fail = (option: ScheduleOptionName, problem: string) => {
    problems.push({
      option,
      problem: `${label(option)}${problem.startsWith(':') ? '' : ' '}${problem}${/[.?]$/.test(problem) ? '' : '.'}`,
    });
  };
  const schedule: ScheduleOptions = {};
  const text = (name: ScheduleOptionName) => {
    const value = input[name];
    return value === undefined || value === false ? undefined : String(value);
  };

  const digest = text('digest');
  if (digest !== undefined) {
    const parsed = parseDigestRecurrence(digest);
    if (parsed.ok) schedule.digest = parsed.value;
    else fail('digest', problemText(parsed.problem));
  }
  const quiet = text('quiet');
  if (quiet !== undefined) {
    const parsed = parseQuietHours(quiet);
    if (parsed.ok) schedule.quiet = parsed.value;
    else fail('quiet', problemText(parsed.problem));
  }
  for (const [name, key, limits] of [
    ['top', 'top', SCHEDULE_LIMITS.top],
    ['max-per-hour', 'maxPerHour', SCHEDULE_LIMITS.maxPerHour],
    ['max-per-day', 'maxPerDay', SCHEDULE_LIMITS.maxPerDay],
  ] as const) {
    const raw = text(name);
    if (raw === undefined) continue;
    const value = Number(raw.trim());
    if (!/^[+-]?\d+$/.test(raw.trim()) || value < limits.min || value > limits.max)
      fail(name, `must be a whole number from ${limits.min} to ${limits.max}, got "${shorten(raw)}"`);
    else schedule[key] = value;
  }
  for (const [name, key] of [
    ['digest-empty', 'digestEmpty'],
    ['quiet-strict', 'quietStrict'],
  ] as const) {
    const raw = input[name];
    if (raw === undefined || raw === false) continue;
    if (raw !== true && raw !== 'true')
      fail(name, `is a switch (true or false), got "${shorten(String(raw))}"`);
    else schedule[key] = true;
  }
  const tz = text('tz');
  if (tz !== undefined) {
    const zone = checkTimeZone(tz);
    if (zone.ok) schedule.timeZone = zone.zone;
    else fail('tz', `: ${zone.problem}`);
  }
  // How the options combine is judged on the values given: with one of them wrong, "give it with
  // --digest" could be said of a --digest that was given, only malformed.
  if (problems.length === 0)
    for (const mismatch of combinationProblems(schedule, feed, label))
      fail(mismatch.option, mismatch.problem);
  return { schedule: Object.keys(schedule).length === 0 ? undefined : schedule, problems };
}

/** Options that mean nothing without another, or for this feed. */
function combinationProblems(s: ScheduleOptions, feed: string, label: OptionLabel): ScheduleProblem[] {
  const problems: ScheduleProblem[] = [];
  if (s.top !== undefined && s.digest === undefined)
    problems.push({ option: 'top', problem: `picks a digest's best items: give it with ${label('digest')}` });
  else if (s.top !== undefined && feed !== 'posts')
    problems.push({
      option: 'top',
      problem: `ranks posts by votes: it applies to the posts feed only, not ${feed}`,
    });
  if (s.digestEmpty === true && s.digest === undefined)
    problems.push({
      option: 'digest-empty',
      problem: `posts a digest for an empty period: give it with ${label('digest')}`,
    });
  if (s.quietStrict === true && s.quiet === undefined)
    problems.push({
      option: 'quiet-strict',
      problem: `holds live-event reminders in quiet hours: give it with ${label('quiet')}`,
    });
  else if (s.quietStrict === true && feed !== 'live')
    problems.push({
      option: 'quiet-strict',
      problem: `is about live-event reminders: it applies to the live feed only, not ${feed}`,
    });
  for (const [name, value] of [
    ['max-per-hour', s.maxPerHour],
    ['max-per-day', s.maxPerDay],
  ] as const) {
    if (value !== undefined && s.digest !== undefined)
      problems.push({
        option: name,
        problem: `limits single messages, and a ${label('digest')} is already one message per period`,
      });
  }
  if (s.maxPerHour !== undefined && s.maxPerDay !== undefined && s.maxPerDay < s.maxPerHour)
    problems.push({
      option: 'max-per-day',
      problem: `(${s.maxPerDay}) is below ${label('max-per-hour')} (${s.maxPerHour}): give the day at least as many`,
    });
  const timed =
    s.digest !== undefined ||
    s.quiet !== undefined ||
    s.maxPerHour !== undefined ||
    s.maxPerDay !== undefined;
  if (s.timeZone !== undefined && !timed)
    problems.push({
      option: 'tz',
      problem: `sets the zone of this subscription's schedule: give it with ${label('digest')}, ${label('quiet')}, ${label('max-per-hour')} or ${label('max-per-day')} (the channel's zone: /directory timezone)`,
    });
  return problems;
}

/** The schedule as the options that would set it, e.g. `digest=daily@09:00`, for echoing back. */
export function scheduleOptionValues(s: ScheduleOptions): [ScheduleOptionName, string][] {
  const out: [ScheduleOptionName, string][] = [];
  if (s.digest) out.push(['digest', formatDigestRecurrence(s.digest)]);
  if (s.top !== undefined) out.push(['top', String(s.top)]);
  if (s.digestEmpty) out.push(['digest-empty', 'true']);
  if (s.quiet) out.push(['quiet', formatQuietHours(s.quiet)]);
  if (s.quietStrict) out.push(['quiet-strict', 'true']);
  if (s.maxPerHour !== undefined) out.push(['max-per-hour', String(s.maxPerHour)]);
  if (s.maxPerDay !== undefined) out.push(['max-per-day', String(s.maxPerDay)]);
  if (s.timeZone !== undefined) out.push(['tz', s.timeZone]);
  return out;
}

export function formatLocalTime(time: LocalTime): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}

/** `hourly`, `daily@09:00`, `weekly@mon-09:00`: what `--digest` takes. */
export function formatDigestRecurrence(recurrence: DigestRecurrence): string {
  if (recurrence.every === 'hourly') return 'hourly';
  if (recurrence.every === 'daily') return `daily@${formatLocalTime(recurrence.at)}`;
  return `weekly@${recurrence.day}-${formatLocalTime(recurrence.at)}`;
}

/** `22:00-07:00`: what `--quiet` takes. */
export function formatQuietHours(quiet: QuietHours): string {
  return `${formatLocalTime(quiet.from)}-${formatLocalTime(quiet.to)}`;
}

/** Two schedules say the same (absent and empty alike). */
export function sameSchedule(a: ScheduleOptions | undefined, b: ScheduleOptions | undefined): boolean {
  return JSON.stringify(scheduleOptionValues(a ?? {})) === JSON.stringify(scheduleOptionValues(b ?? {}));
}

function fullDayName(day: Weekday): string {
  return {
    mon: 'monday',
    tue: 'tuesday',
    wed: 'wednesday',
    thu: 'thursday',
    fri: 'friday',
    sat: 'saturday',
    sun: 'sunday',
  }[day];
}

/** A parse problem after the option's name: "expects …" reads on, anything else after a colon. */
function problemText(problem: string): string {
  return problem.startsWith('expects ') ? problem : `: ${problem}`;
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}
