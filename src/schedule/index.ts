/** Schedule options as values: digests, quiet hours and caps, their parsing, time zones and slots in a zone. */
export {
  buildSchedule,
  formatLocalTime,
  SCHEDULE_OPTION_NAMES,
  type ScheduleInput,
  sameSchedule,
  scheduleOptionValues,
} from './parse-schedule.js';
export {
  type DigestRecurrence,
  SCHEDULE_LIMITS,
  type ScheduleOptions,
  type Weekday,
  type ZoneOf,
} from './schedule-options.js';
export {
  capWindowAt,
  formatLocal,
  isKnownZone,
  latestDigestAt,
  nextDigestAt,
  quietWindowAt,
} from './schedule-slots.js';
export { formatDuration, formatUtc } from './time-text.js';
export { checkTimeZone } from './time-zones.js';
