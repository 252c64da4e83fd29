import type { Message } from '../ports/index.js';
import { type CommandAction, commandAction } from '../ports/index.js';

/** More than this many subscriptions behind one post would crowd the buttons out. */
const MAX_MUTE_BUTTONS = 3;

/**
 * The message as it goes to one destination: the item's own buttons plus "Mute this
 * subscription" (`pause <id>`) for the subscription it is delivered for. The message is composed
 * once per item; only here, per destination, is the subscription known, and the button carries
 * its id and nothing else, so nothing is stored for it. A copy: the shared message is not touched.
 * A one-line message (the `compact` and `title` formats) stays as it is: those carry no buttons.
 */
export function withMuteActions(message: Message, subscriptionIds: readonly string[]): Message {
  // A compact or title subscription gets one line and no buttons at all.
  if (message.layout === 'line') return message;
  const ids = [...new Set(subscriptionIds)].slice(0, MAX_MUTE_BUTTONS);
  const label = (id: string) => (ids.length === 1 ? 'Mute this subscription' : `Mute subscription ${id}`);
  const mutes = ids
    .map((id) => commandAction('mute', id, label(id)))
    .filter((action): action is CommandAction => action !== undefined);
  if (mutes.length === 0) return message;
  return { ...message, actions: [...(message.actions ?? []), ...mutes] };
}
