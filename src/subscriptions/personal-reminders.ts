import { randomBytes } from 'node:crypto';
import type Keyv from 'keyv';
import type { Clock, RemindedEvent } from '../ports/index.js';
import type { LeaseBackend } from '../store/index.js';
import { LockedDocument } from '../store/index.js';

/**
 * A person's "DM me before this live event starts" (`/directory remind`). What is stored about
 * the person is their platform user id and workspace, and the event they asked about
 * (docs/privacy.md lists it); a reminder is deleted once its DM is queued, or cancelled.
 */
export interface Reminder extends RemindedEvent {
  /** Short id the person types in `/directory remind cancel <id>`. */
  id: string;
  /** The directory the event belongs to: event ids mean nothing against another directory. */
  directoryId: string;
  platform: string;
  /** Slack team or Discord server the command came from (what `workspace forget` finds it by). */
  workspaceId?: string;
  /** Platform user id of the person who asked, and who gets the DM. */
  userId: string;
  createdAt: number;
}

export type NewReminder = Omit<Reminder, 'id' | 'createdAt' | 'movedFrom'>;

/** The one store document holding every pending reminder (docs/privacy.md lists it). */
export const REMINDERS_KEY = 'reminders';
/** The lease serialising changes to it. */
export const REMINDERS_WRITE_LOCK = 'reminders-write';

/** When the DM of `reminder` is due, epoch ms. */
export function reminderDueAt(reminder: Pick<Reminder, 'startsAt' | 'beforeMinutes'>): number {
  return Date.parse(reminder.startsAt) - reminder.beforeMinutes * 60_000;
}

/**
 * Pending reminders in one store document, like subscriptions: few, changed by a command on any
 * instance, read by the poller each reminder tick.
 */
export class ReminderRepository {
  readonly #document: LockedDocument<Reminder[]>;
  readonly #clock: Clock;

  constructor(options: { keyv: Keyv; leases: LeaseBackend; clock: Clock }) {
    this.#clock = options.clock;
    this.#document = new LockedDocument<Reminder[]>({
      keyv: options.keyv,
      leases: options.leases,
      key: REMINDERS_KEY,
      lockName: REMINDERS_WRITE_LOCK,
      empty: () => [],
    });
  }

  list(): Promise<Reminder[]> {
    return this.#document.read();
  }

  /** One person's reminders, soonest due first. */
  async forPerson(platform: string, userId: string): Promise<Reminder[]> {
    return (await this.list())
      .filter((r) => r.platform === platform && r.userId === userId)
      .sort((a, b) => reminderDueAt(a) - reminderDueAt(b));
  }

  /** Adds a reminder; the same person's identical one (same event and lead time) is returned instead. */
  add(input: NewReminder): Promise<{ reminder: Reminder; created: boolean }> {
    return this.#document.update<{ reminder: Reminder; created: boolean }>((all) => {
      const existing = all.find(
        (r) =>
          r.platform === input.platform &&
          r.userId === input.userId &&
          r.directoryId === input.directoryId &&
          r.eventId === input.eventId &&
          r.beforeMinutes === input.beforeMinutes,
      );
      if (existing) return { result: { reminder: existing, created: false } };
      const taken = new Set(all.map((r) => r.id));
      const reminder: Reminder = { ...input, id: newId(taken), createdAt: this.#clock.now() };
      return { next: [...all, reminder], result: { reminder, created: true } };
    });
  }

  /** Cancels one of the person's own reminders; undefined when they have none with that id. */
  cancel(platform: string, userId: string, id: string): Promise<Reminder | undefined> {
    return this.#document.update<Reminder | undefined>((all) => {
      const found = all.find((r) => r.platform === platform && r.userId === userId && r.id === id);
      if (!found) return { result: undefined };
      return { next: all.filter((r) => r !== found), result: found };
    });
  }

  /**
   * The poller's changes in one write: re-timed reminders (by id) replaced, sent ones removed.
   * Ids no longer stored (cancelled meanwhile) are ignored.
   */
  settle(changes: { retimed: readonly Reminder[]; sent: readonly string[] }): Promise<void> {
    if (changes.retimed.length === 0 && changes.sent.length === 0) return Promise.resolve();
    const sent = new Set(changes.sent);
    const retimed = new Map(changes.retimed.map((r) => [r.id, r]));
    return this.#document.update((all) => ({
      next: all.filter((r) => !sent.has(r.id)).map((r) => retimed.get(r.id) ?? r),
      result: undefined,
    }));
  }

  /** Removes every reminder set from one workspace and returns them. */
  removeWorkspace(platform: string, workspaceId: string): Promise<Reminder[]> {
    return this.#document.update((all) => {
      const removed = all.filter((r) => r.platform === platform && r.workspaceId === workspaceId);
      if (removed.length === 0) return { result: removed };
      return { next: all.filter((r) => !removed.includes(r)), result: removed };
    });
  }
}

function newId(taken: ReadonlySet<string>): string {
  for (;;) {
    const id = `r${randomBytes(3).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
}
