import type { ChatAdapter, DeliveryOutcome, Destination } from '../ports/chat-adapter.js';
import type { Clock } from '../ports/clock.js';
import type { Message } from '../ports/message.js';
import type { ThreadProblem } from '../ports/threads.js';
import type { DeliveredLedger } from './dedupe.js';
import type { OutboxEntry } from './outbox.js';
import type { SubscriptionRepository } from './subscriptions.js';

export type Post = (destination: Destination, message: Message) => Promise<DeliveryOutcome>;

export interface ThreadDeliveryDeps {
  ledger: DeliveredLedger;
  subscriptions: Pick<SubscriptionRepository, 'noteThreadProblem'>;
  clock: Clock;
}

/**
 * Delivers a reply under its parent, deciding at delivery time (the parent may have been posted
 * after the reply was queued): no parent posted in this channel → top-level, as before threads.
 * On a platform that starts threads (Discord) the thread id is written into the parent's ledger
 * entry before the reply is posted, so a bot killed in between finds it and never starts a second
 * one. A thread that refuses the reply (no permission, archived for good) does not lose it: it is
 * posted top-level with a note, and the subscription is told why (`/directory status`).
 */
export class ThreadDelivery {
  readonly #deps: ThreadDeliveryDeps;

  constructor(deps: ThreadDeliveryDeps) {
    this.#deps = deps;
  }

  async send(
    adapter: ChatAdapter,
    entry: OutboxEntry,
    message: Message,
    post: Post,
  ): Promise<DeliveryOutcome> {
    const { ledger } = this.#deps;
    if (entry.thread === undefined || entry.destination.direct === true)
      return post(entry.destination, message);
    const parent = await ledger.reference(entry.destinationKey, entry.thread.parentKey);
    if (parent === undefined) return post(entry.destination, message);
    let threadId = parent.threadId;
    if (threadId === undefined && adapter.openThread !== undefined) {
      const opening = await adapter.openThread(
        entry.destination,
        parent.messageId,
        entry.thread.title ?? 'Comments',
      );
      if (opening.status === 'failed') {
        const { status: _status, ...failure } = opening;
        return { status: 'failed', ...failure };
      }
      if (opening.status === 'refused') return this.#topLevel(entry, message, opening, post);
      threadId = opening.threadId;
      // Durable before any reply is posted: the next reply (or a restarted bot) reuses it.
      await ledger.noteThread(entry.destinationKey, entry.thread.parentKey, threadId);
    }
    const destination: Destination = {
      ...entry.destination,
      thread: {
        parentMessageId: parent.messageId,
        ...(threadId === undefined ? {} : { threadId }),
        ...(entry.thread.broadcast ? { broadcast: true } : {}),
      },
    };
    const outcome = await post(destination, message);
    if (outcome.status === 'rejected' && outcome.scope === 'thread') {
      return this.#topLevel(entry, message, outcome, post);
    }
    // Whichever instance noted a problem, a reply through the thread clears it. Only a stored
    // problem costs a write; checking costs the subscriptions' version read. Not awaited: the
    // reply is posted and not yet recorded, and a slow store or a busy subscriptions lock here
    // would widen the window in which a crash posts it twice.
    if (outcome.status === 'delivered') void this.#note(entry.subscriptionIds, undefined);
    return outcome;
  }

  async #topLevel(
    entry: OutboxEntry,
    message: Message,
    why: { code: string; reason: string },
    post: Post,
  ): Promise<DeliveryOutcome> {
    const problem: ThreadProblem = { code: why.code, reason: why.reason, at: this.#deps.clock.now() };
    await this.#note(entry.subscriptionIds, problem);
    return post(entry.destination, withThreadNote(message, why.code));
  }

  /**
   * The status note is bookkeeping around a post, never a reason to fail it: a throw here (the
   * store down, the subscriptions lock busy) after the reply was posted would make the dispatcher
   * retry a post nothing recorded, and Slack would show the reply twice. A note that could not be
   * written is tried again with the subscription's next reply.
   */
  async #note(ids: readonly string[], problem: ThreadProblem | undefined): Promise<void> {
    try {
      await this.#deps.subscriptions.noteThreadProblem(ids, problem);
    } catch {
      // Tried again with the next reply.
    }
  }
}

/** Says in the message why it is in the channel rather than its post's thread. */
export function withThreadNote(message: Message, code: string): Message {
  const note = `Reply to a post above; its thread is unavailable (${code})`;
  if (message.layout === 'line') return { ...message, title: `↳ ${message.title}` };
  return { ...message, footer: message.footer ? `${note} · ${message.footer}` : note };
}
