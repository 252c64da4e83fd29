import Keyv from 'keyv';
import { ReminderRepository } from '../../src/delivery/reminders.js';
import { composeLiveEventMessage } from '../../src/messages/index.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Message } from '../../src/ports/index.js';
import type { Harness } from './command-harness.js';

/** Personal reminders in memory, on `clock`, behind a lease that is always free (one instance). */
export function memoryReminders(clock: Clock): ReminderRepository {
  const leases = { acquire: async () => true, release: async () => {}, holder: async () => undefined };
  return new ReminderRepository({ keyv: new Keyv(), leases, clock });
}

/** A live event three days out in the harness's emulator, and its feed announcement. */
export function announcedLiveEvent(harness: Harness): { id: string; message: Message } {
  const startsAt = new Date(harness.clock.now() + 3 * 86_400_000).toISOString();
  const id = String(harness.emulator.admin.scheduleLive({ name: 'Button AMA', startsAt }).id);
  const message = composeLiveEventMessage({
    id,
    name: 'Button AMA',
    startsAt,
    liveVideo: false,
    url: `https://directory.example/live/${id}`,
  });
  return { id, message };
}
