import { z } from 'zod';
import type { DirectoryLiveEvent } from '../directory/index.js';
import type { CommandReply, Message } from '../ports/index.js';
import { type Reminder, reminderDueAt } from '../subscriptions/index.js';
import type { ActionCommand, CommandRequest } from './command-module.js';
import { findLiveEvent, matches, parseLiveEventRef } from './reminder-event.js';
import { errorReply, infoMessage, infoReply, rateLimitedReply } from './replies.js';
import { MAX_RESULTS } from './shared-options.js';
import { formatDuration, formatUtc } from './time-text.js';
import type { ReminderDesk } from './types.js';
import { upstreamFailureReply } from './upstream-failure.js';

export const DEFAULT_BEFORE_MINUTES = 10;
export const MAX_BEFORE_MINUTES = 1440;
/**
 * Pending reminders one person may hold: every pending reminder is in one store document the
 * poller reads every tick, so nobody may grow it without bound.
 */
export const MAX_PER_PERSON = 25;
const BEFORE_RANGE = `must be between 1 and ${MAX_BEFORE_MINUTES} minutes`;

/**
 * `remind <event> [--before N]`, `remind list`, `remind cancel <id>`: a DM to the person who
 * asks, N minutes before a live event starts. It changes nothing in the channel, so anyone may
 * set one for themselves; each person sees and cancels only their own.
 */
export const remind: ActionCommand = {
  spec: {
    name: 'remind',
    kind: 'local',
    description: 'DM me before a live event starts; or list / cancel my reminders',
    usage: 'remind <live-event id|slug|url> [--before <minutes>] | remind list | remind cancel <id>',
    examples: ['remind 42', 'remind ai-office-hours --before 30', 'remind list', 'remind cancel r1a2b3'],
    options: [
      {
        name: 'event',
        description: 'Live event id, slug or link; or list, or cancel',
        type: 'string',
        required: true,
        positional: true,
        maxLength: 300,
        schema: z.string().refine((v) => isAction(v) || parseLiveEventRef(v) !== undefined, {
          error: 'a live event id, slug or directory link, or list, or cancel',
        }),
      },
      {
        name: 'id',
        description: 'With cancel: the reminder id (see remind list)',
        type: 'string',
        required: false,
        positional: true,
        maxLength: 16,
        schema: z.string().regex(/^r[0-9a-f]{6}$/i, { error: 'a reminder id like r1a2b3 (see remind list)' }),
      },
      {
        name: 'before',
        description: `Minutes before the start (1-${MAX_BEFORE_MINUTES}, default ${DEFAULT_BEFORE_MINUTES})`,
        type: 'integer',
        required: false,
        positional: false,
        minValue: 1,
        maxValue: MAX_BEFORE_MINUTES,
        schema: z
          .number()
          .int()
          .min(1, { error: BEFORE_RANGE })
          .max(MAX_BEFORE_MINUTES, { error: BEFORE_RANGE }),
      },
    ],
  },
  async run(request) {
    const desk = request.deps.reminders;
    if (desk === undefined) return errorReply('unavailable', 'Reminders are not available here.');
    const target = String(request.args['event'] ?? '');
    const id = request.args['id'];
    const action = target.toLowerCase();
    if (action === 'list') return listReminders(request, desk);
    if (action === 'cancel') {
      if (typeof id !== 'string') {
        return errorReply(
          'command_usage',
          'Which reminder? Give its id, as remind list shows it.',
          request.spec.usage,
        );
      }
      return cancelReminder(request, desk, id.toLowerCase());
    }
    if (id !== undefined) {
      return errorReply('command_usage', `Unexpected argument "${String(id)}".`, request.spec.usage);
    }
    return setReminder(request, desk, target);
  },
};

function isAction(value: string): boolean {
  return ['list', 'cancel'].includes(value.toLowerCase());
}

/** `14:05 UTC (in 2 h 5 min)`: the same instant for every reader, plus how far off it is. */
function when(at: number, now: number): string {
  return `${formatUtc(at, now)} (in ${formatDuration(at - now)})`;
}

/** The reminder as a card: its DM time is the message timestamp, shown in each reader's own zone. */
function reminderCard(reminder: Reminder, now: number): Message {
  const dueAt = reminderDueAt(reminder);
  return {
    ...infoMessage(`${reminder.id}: ${reminder.eventName}`, '', [
      { name: 'DM at', value: when(dueAt, now), inline: true },
      { name: 'Starts', value: formatUtc(Date.parse(reminder.startsAt), now), inline: true },
      { name: 'Before', value: `${reminder.beforeMinutes} min`, inline: true },
    ]),
    ...(reminder.eventUrl === undefined ? {} : { url: reminder.eventUrl }),
    timestamp: new Date(dueAt).toISOString(),
    footer: 'Your reminder · the time above is the DM, in your time zone',
  };
}

async function setReminder(
  request: CommandRequest,
  desk: ReminderDesk,
  target: string,
): Promise<CommandReply> {
  const { invocation, args, deps } = request;
  const ref = parseLiveEventRef(target);
  if (ref === undefined) return errorReply('command_usage', 'That is not a live event id, slug or link.');
  const before = typeof args['before'] === 'number' ? args['before'] : DEFAULT_BEFORE_MINUTES;
  const now = deps.clock.now();
  if (
    (await desk.repository.forPerson(invocation.platform, invocation.actor.userId)).length >= MAX_PER_PERSON
  ) {
    return errorReply(
      'command_usage',
      `You have ${MAX_PER_PERSON} reminders already, the most one person may hold: cancel one first (remind list).`,
    );
  }
  const listed = await desk.listedEvents();
  // An event the live feed has not listed costs an upstream request: the person's lookup allowance.
  const waitMs = listed.some((e) => matches(e, ref)) ? 0 : (request.spendLookupAllowance?.() ?? 0);
  if (waitMs > 0) return rateLimitedReply(waitMs);
  let event: DirectoryLiveEvent | undefined;
  try {
    event = await findLiveEvent(ref, listed, deps.client, now);
  } catch (error) {
    return upstreamFailureReply(error, { ledger: deps.client.ledger, now }).reply;
  }
  if (event === undefined) {
    const named = 'id' in ref ? `id ${ref.id}` : `slug ${ref.slug}`;
    return errorReply('not_found', `The directory lists no live event with ${named} around now.`);
  }
  const refusal = notRemindable(event, before, now);
  if (refusal !== undefined) return errorReply('command_usage', refusal);

  const { reminder, created } = await desk.repository.add({
    directoryId: desk.directoryId,
    platform: invocation.platform,
    ...(invocation.workspaceId === undefined ? {} : { workspaceId: invocation.workspaceId }),
    userId: invocation.actor.userId,
    eventId: event.id,
    eventName: event.name,
    ...(event.url === undefined ? {} : { eventUrl: event.url }),
    startsAt: event.startsAt as string,
    beforeMinutes: before,
  });
  const lead = created ? 'I will DM you' : `You already have this reminder (${reminder.id}): I will DM you`;
  return infoReply(
    `${lead} at ${when(reminderDueAt(reminder), now)}, ${reminder.beforeMinutes} min before "${reminder.eventName}" starts. ` +
      `Cancel it with: remind cancel ${reminder.id}`,
    [reminderCard(reminder, now)],
  );
}

/** Why no reminder can be set for `event`, or undefined when one can. */
function notRemindable(event: DirectoryLiveEvent, before: number, now: number): string | undefined {
  const name = `"${event.name}"`;
  if (event.startsAt === null)
    return `${name} has no start time yet, so there is nothing to time a reminder by.`;
  const starts = Date.parse(event.startsAt);
  const ends = event.endsAt === undefined ? Number.NaN : Date.parse(event.endsAt);
  if (ends <= now) return `${name} has already ended (${formatUtc(ends, now)}).`;
  if (starts <= now) return `${name} has already started (${formatUtc(starts, now)}).`;
  if (starts - before * 60_000 <= now) {
    return `${name} starts at ${when(starts, now)}, sooner than ${before} min from now: choose a smaller --before.`;
  }
  return undefined;
}

async function listReminders(request: CommandRequest, desk: ReminderDesk): Promise<CommandReply> {
  const { invocation, deps } = request;
  const mine = await desk.repository.forPerson(invocation.platform, invocation.actor.userId);
  if (mine.length === 0)
    return infoReply('You have no reminders. Set one with: remind <live-event id|slug|url>');
  const now = deps.clock.now();
  return infoReply(
    `Your reminders (${mine.length}${mine.length > MAX_RESULTS ? `, the first ${MAX_RESULTS} shown` : ''}); cancel one with: remind cancel <id>`,
    mine.slice(0, MAX_RESULTS).map((r) => reminderCard(r, now)),
  );
}

async function cancelReminder(
  request: CommandRequest,
  desk: ReminderDesk,
  id: string,
): Promise<CommandReply> {
  const { invocation } = request;
  const removed = await desk.repository.cancel(invocation.platform, invocation.actor.userId, id);
  if (removed === undefined) {
    return errorReply(
      'not_found',
      `You have no reminder ${id} (it may have been sent already). See: remind list`,
    );
  }
  return infoReply(`Cancelled reminder ${removed.id} for "${removed.eventName}".`);
}
