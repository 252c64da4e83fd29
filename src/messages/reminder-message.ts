import type { Message, RemindedEvent } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, footerFor } from './build-message.js';
import { KIND_COLORS } from './colors.js';
import { FieldList, formatInstant, formatLeadTime } from './fields.js';
import { singleLine, summaryLine } from './plain-text.js';

/** What a personal reminder DM is about (a stored reminder, as the poller knows it now). */
export interface ReminderDm extends RemindedEvent {
  /** The id the person cancels it by. */
  id: string;
}

export interface ReminderDmOptions {
  /** Epoch ms the DM is composed at. */
  now: number;
  /** Set when the DM goes out well after it was due (the bot was not running then): when it was due. */
  lateSince?: number;
  /** The live feed's latest listing no longer shows the event at its time: it may be cancelled. */
  unlisted?: boolean;
}

/**
 * The DM `/directory remind` promised: "Starting in 10 minutes: <event>", with the start as the
 * message timestamp (shown in the reader's own zone by Slack and Discord) and a readable UTC
 * field. Late, moved and no-longer-listed reminders say so in the text, so the person never
 * mistakes a late DM for a punctual one.
 */
export function composeReminderDm(reminder: ReminderDm, options: ReminderDmOptions): Message {
  const name = singleLine(reminder.eventName) || `Live event ${reminder.eventId}`;
  const startsMs = Date.parse(reminder.startsAt);
  const untilStart = startsMs - options.now;
  const lead =
    untilStart >= 60_000
      ? `Starting ${formatLeadTime(untilStart)}`
      : untilStart > -60_000
        ? 'Starting now'
        : `Started ${formatLeadTime(-untilStart).replace(/^in /, '')} ago`;
  const notes: string[] = [];
  if (options.lateSince !== undefined) {
    notes.push(
      `Sent late: the bot was not running when this reminder was due (${formatInstant(new Date(options.lateSince).toISOString()) ?? 'earlier'}).`,
    );
  }
  if (reminder.movedFrom !== undefined) {
    notes.push(`The event moved: it was to start ${formatInstant(reminder.movedFrom) ?? 'at another time'}.`);
  }
  if (options.unlisted === true) {
    notes.push('The directory no longer lists this event at that time: it may have been cancelled or moved.');
  }
  const title = `${lead}: ${name}`;
  const fields = new FieldList()
    .text('Starts', formatInstant(reminder.startsAt))
    .text('Reminder', `${reminder.beforeMinutes} min before · ${reminder.id}`);
  return buildMessage({
    kind: 'live-reminder',
    title,
    url: sanitizeUrl(reminder.eventUrl),
    text: notes.length > 0 ? notes.join('\n') : undefined,
    fields: fields.build(),
    timestamp: reminder.startsAt,
    color: KIND_COLORS['live-reminder'],
    footer: footerFor('your reminder'),
    fallback: summaryLine(options.lateSince === undefined ? title : `Late reminder: ${title}`),
  });
}
