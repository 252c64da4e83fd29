import Keyv from 'keyv';
import { composeLiveEventMessage, composePostMessage } from '../../src/messages/index.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Message } from '../../src/ports/index.js';
import { ReminderRepository } from '../../src/subscriptions/personal-reminders.js';
import { type Harness, startHarness } from './command-harness.js';

/** Personal reminders in memory, on `clock`, behind a lease that is always free (one instance). */
export function memoryReminders(clock: Clock): ReminderRepository {
  const leases = { acquire: async () => true, release: async () => {}, holder: async () => undefined };
  return new ReminderRepository({ keyv: new Keyv(), leases, clock });
}

/**
 * A command harness whose handler keeps personal reminders in memory, on the harness's own
 * manual clock (the reminders are made first, so their clock reads the harness's once it runs).
 */
export async function startButtonHarness(): Promise<{ harness: Harness; reminders: ReminderRepository }> {
  let now = () => 0;
  const reminders = memoryReminders({ now: () => now() });
  const harness = await startHarness({
    handler: { reminders: { repository: reminders, directoryId: 'buttons', listedEvents: async () => [] } },
  });
  now = () => harness.clock.now();
  return { harness, reminders };
}

/**
 * A post with one comment in the harness's emulator, and its feed message. The comment's body is
 * the platform's own way to ping everyone, which the Comments answer must never pass on.
 */
export function postWithComment(harness: Harness, commentBody: string): { postId: string; message: Message } {
  const added = harness.emulator.admin.addPost({ name: 'Button post' });
  const postId = String(added.id);
  harness.emulator.admin.addComment({ postId: added.id, body: commentBody });
  const message = composePostMessage({
    id: postId,
    name: 'Button post',
    url: `https://directory.example/posts/${postId}`,
    makers: [],
    topics: [],
  });
  return { postId, message };
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
