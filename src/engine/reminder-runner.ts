import type Keyv from 'keyv';
import type { DeliveredLedger, Outbox, OutboxEntry } from '../delivery/index.js';
import type { DirectoryLiveEvent } from '../directory/index.js';
import type { LiveFeedState } from '../feeds/live-feed.js';
import { composeReminderDm } from '../messages/index.js';
import type { Clock } from '../ports/index.js';
import { directoryKeys } from '../store/index.js';
import { type Reminder, type ReminderRepository, reminderDueAt } from '../subscriptions/index.js';

/** A reminder sent this long after it was due says it is late (the bot was down at the time). */
export const LATE_AFTER_MS = 2 * 60_000;
/** How often the poller looks for due reminders: a DM is at most this late on a running bot. */
export const REMINDER_TICK_MS = 15_000;

export type ReminderEvent =
  | { type: 'queued'; platform: string; reminderId: string; late: boolean; unlisted: boolean }
  | { type: 'retimed'; platform: string; reminderId: string; from: string; to: string }
  | { type: 'tick-failed'; error: unknown };

export interface ReminderRunnerOptions {
  reminders: ReminderRepository;
  outbox: Outbox;
  ledger: DeliveredLedger;
  keyv: Keyv;
  directoryId: string;
  clock: Clock;
  /** Told after DMs were queued, so it delivers them now. */
  wake: () => void;
  /** Platforms with an adapter running here; reminders of others wait. */
  platforms: () => ReadonlySet<string>;
  tickMs?: number;
  onEvent?: (event: ReminderEvent) => void;
}

/** The outbox destination of a person's DMs: kept apart from every channel's queue and pace. */
export function directDestinationKey(platform: string, userId: string): string {
  return `${platform}:dm:${userId}`;
}

/**
 * Turns due reminders into DMs, on the poller only (like every delivery), through the durable
 * outbox: a reminder is queued first and deleted after, and the delivered ledger is checked
 * before queueing, so a crash between the two steps neither loses the DM nor sends it twice. A
 * reminder found due long after its time (the bot was down) is sent once, marked late.
 *
 * The live feed's last listing, already in the store, is the only source of news about the
 * event: no request of its own. An event listed at another start is re-timed; one no longer
 * listed while later events are says so in the DM.
 */
export function createReminderRunner(options: ReminderRunnerOptions) {
  const { reminders, outbox, ledger, keyv, directoryId, clock } = options;
  const liveStateKey = directoryKeys(directoryId).feedState('live');
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function tick(): Promise<number> {
    const mine = (await reminders.list()).filter((r) => r.directoryId === directoryId);
    if (mine.length === 0) return 0;
    const listing = (await keyv.get<LiveFeedState>(liveStateKey))?.upcoming;
    const listed = new Map((listing ?? []).map((e) => [e.id, e]));
    const now = clock.now();
    const platforms = options.platforms();

    const retimed: Reminder[] = [];
    const due: Reminder[] = [];
    for (const stored of mine) {
      const reminder = retime(stored, listed.get(stored.eventId));
      if (reminder !== stored) {
        retimed.push(reminder);
        options.onEvent?.({
          type: 'retimed',
          platform: reminder.platform,
          reminderId: reminder.id,
          from: stored.startsAt,
          to: reminder.startsAt,
        });
      }
      if (reminderDueAt(reminder) <= now && platforms.has(reminder.platform)) due.push(reminder);
    }

    const entries = due.map((reminder) => entryFor(reminder, now, unlisted(reminder, listing, now)));
    const already = await ledger.delivered(
      entries.map((e) => ({ destination: e.destinationKey, itemKey: e.itemKey })),
    );
    // Durable in the outbox before the reminder is deleted: a crash in between re-queues it, and
    // the outbox (or, once posted, the ledger) keeps that from becoming a second DM.
    await outbox.enqueue(entries.filter((_, i) => !already[i]));
    await reminders.settle({
      retimed: retimed.filter((r) => !due.includes(r)),
      sent: due.map((r) => r.id),
    });
    due.forEach((reminder, i) => {
      if (already[i]) return;
      options.onEvent?.({
        type: 'queued',
        platform: reminder.platform,
        reminderId: reminder.id,
        late: now - reminderDueAt(reminder) > LATE_AFTER_MS,
        unlisted: unlisted(reminder, listing, now),
      });
    });
    if (entries.length > 0) options.wake();
    return entries.length;
  }

  /** One tick at a time, whoever asks (the timer, a test). */
  function runOnce(): Promise<number> {
    running ??= tick().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    /** Checks for due reminders now and resolves with how many DMs were queued. */
    runOnce,
    start(): void {
      clearInterval(timer);
      const safely = () => {
        runOnce().catch((error: unknown) => options.onEvent?.({ type: 'tick-failed', error }));
      };
      safely();
      timer = setInterval(safely, options.tickMs ?? REMINDER_TICK_MS);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };

  function entryFor(reminder: Reminder, now: number, isUnlisted: boolean): OutboxEntry {
    const dueAt = reminderDueAt(reminder);
    const late = now - dueAt > LATE_AFTER_MS;
    const message = composeReminderDm(reminder, {
      now,
      ...(late ? { lateSince: dueAt } : {}),
      unlisted: isUnlisted,
    });
    return {
      destination: {
        platform: reminder.platform,
        channelId: reminder.userId,
        direct: true,
        ...(reminder.workspaceId === undefined ? {} : { workspaceId: reminder.workspaceId }),
      },
      destinationKey: directDestinationKey(reminder.platform, reminder.userId),
      itemKey: `reminder:${reminder.id}`,
      message,
      subscriptionIds: [],
      enqueuedAt: now,
      attempts: 0,
      notBefore: now,
    };
  }
}

/** The reminder at the start the listing shows now (the same object when nothing moved). */
function retime(reminder: Reminder, event: DirectoryLiveEvent | undefined): Reminder {
  const listedStart = event?.startsAt;
  if (listedStart == null || Date.parse(listedStart) === Date.parse(reminder.startsAt)) return reminder;
  return { ...reminder, startsAt: listedStart, movedFrom: reminder.movedFrom ?? reminder.startsAt };
}

/**
 * The listing covers the event's time (it holds an event starting later) but not the event, which
 * has not started: it was cancelled or moved out of view. Without a listing, nothing can be said.
 */
function unlisted(
  reminder: Reminder,
  listing: readonly DirectoryLiveEvent[] | undefined,
  now: number,
): boolean {
  if (listing === undefined || listing.some((e) => e.id === reminder.eventId)) return false;
  const start = Date.parse(reminder.startsAt);
  // The listing keeps only what has not started: a started event is missing from it by design.
  if (start <= now) return false;
  return listing.some((e) => e.startsAt !== null && Date.parse(e.startsAt) > start);
}
