import type { ScheduleInput } from '../schedule/index.js';
import { SCHEDULE_LIMITS, SCHEDULE_OPTION_NAMES } from '../schedule/index.js';
import type { FormInput, OptionSpec, ParsedArgs } from './command-spec.js';

/**
 * `/directory subscribe`'s schedule options (when items are posted, issue 14). The parser only
 * checks their type here; `buildSchedule` checks values and combinations in one place for the
 * command and SUBSCRIPTIONS, so both say the same thing about the same mistake.
 */
const flag = (
  name: string,
  description: string,
  type: OptionSpec['type'],
  extra: Partial<OptionSpec> = {},
): OptionSpec => ({
  name,
  description,
  type,
  required: false,
  positional: false,
  ...extra,
});

export const SCHEDULE_OPTION_SPECS: readonly OptionSpec[] = [
  flag('digest', 'One digest instead of each item: hourly, daily@HH:MM or weekly@mon-HH:MM', 'string', {
    maxLength: 30,
  }),
  flag(
    'top',
    `posts digest: only the ${SCHEDULE_LIMITS.top.min}-${SCHEDULE_LIMITS.top.max} best by votes, ranked`,
    'integer',
    {
      minValue: SCHEDULE_LIMITS.top.min,
      maxValue: SCHEDULE_LIMITS.top.max,
    },
  ),
  flag('digest-empty', 'Post a digest even when nothing new came in the period', 'boolean', {
    aliases: ['digest_empty'],
  }),
  flag('quiet', 'Hold messages in this local window, then post them: HH:MM-HH:MM', 'string', {
    maxLength: 20,
  }),
  flag('quiet-strict', 'live: hold event reminders in quiet hours too', 'boolean', {
    aliases: ['quiet_strict'],
  }),
  flag(
    'max-per-hour',
    `At most this many a local hour (${SCHEDULE_LIMITS.maxPerHour.max} max); the rest in one summary`,
    'integer',
    {
      minValue: SCHEDULE_LIMITS.maxPerHour.min,
      maxValue: SCHEDULE_LIMITS.maxPerHour.max,
      aliases: ['max_per_hour'],
    },
  ),
  flag(
    'max-per-day',
    `At most this many a local day (${SCHEDULE_LIMITS.maxPerDay.max} max); the rest in one summary`,
    'integer',
    {
      minValue: SCHEDULE_LIMITS.maxPerDay.min,
      maxValue: SCHEDULE_LIMITS.maxPerDay.max,
      aliases: ['max_per_day'],
    },
  ),
  flag('tz', "This subscription's IANA time zone (default: the channel's)", 'string', {
    maxLength: 64,
    aliases: ['timezone', 'time-zone'],
  }),
];

/** The schedule inputs of the subscribe form, after the filters (docs/discord.md: why Discord shows none). */
export const SCHEDULE_FORM_INPUTS: readonly FormInput[] = [
  {
    option: 'digest',
    label: 'Digest instead of each item',
    placeholder: 'hourly, daily@09:00 or weekly@mon-09:00',
  },
  { option: 'top', label: 'Posts digest: only the top N by votes', placeholder: '5' },
  { option: 'quiet', label: 'Quiet hours (held, then posted)', placeholder: '22:00-07:00' },
  { option: 'tz', label: 'Time zone (default: the channel’s)', placeholder: 'Europe/Berlin' },
];

/** The schedule options among a command's parsed arguments. */
export function scheduleInput(args: ParsedArgs): ScheduleInput {
  const input: ScheduleInput = {};
  for (const name of SCHEDULE_OPTION_NAMES) {
    const value = args[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      input[name] = value;
  }
  return input;
}

/** `[--digest hourly|daily@HH:MM|weekly@ddd-HH:MM] …`: the usage line's part for these options. */
export const SCHEDULE_USAGE =
  '[--digest hourly|daily@HH:MM|weekly@ddd-HH:MM [--top N] [--digest-empty]] [--quiet HH:MM-HH:MM [--quiet-strict]] [--max-per-hour N] [--max-per-day N] [--tz Zone]';
