import type { FeedItem } from '../feeds/feed-item.js';
import { itemKey } from '../feeds/feed-item.js';
import type {
  ChatAdapter,
  Clock,
  DeliveredItem,
  DeliveryOutcome,
  Destination,
  Message,
  ThreadProblem,
} from '../ports/index.js';
import type { FeedFilters, SubscriptionRepository, ThreadSettings } from '../subscriptions/index.js';
import { matchesFilters } from '../subscriptions/index.js';
import type { DeliveredLedger, PostedReference } from './delivered-ledger.js';
import { withMuteActions } from './mute-actions.js';
import { type EntryThread, idempotencyKeyOf, type OutboxEntry } from './outbox.js';

export interface ThreadDeliveryDeps {
  ledger: DeliveredLedger;
  subscriptions: Pick<SubscriptionRepository, 'noteThreadProblem'>;
  clock: Clock;
}

/**
 * Delivers a reply under its parent, deciding at delivery time (the parent may have been posted
 * after the reply was queued): no parent posted in this channel → top-level, as before threads
 * (a digest's later part never goes top-level: see EntryThread.parentInstead).
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

  /** Posts `message` (the entry's, as the channel shows it) under its parent, or top-level. */
  async send(adapter: ChatAdapter, entry: OutboxEntry, message: Message): Promise<DeliveryOutcome> {
    const { ledger } = this.#deps;
    const options = { idempotencyKey: idempotencyKeyOf(entry), item: deliveredItem(entry) };
    const post = (destination: Destination, m: Message) => adapter.deliver(destination, m, options);
    if (entry.thread === undefined || entry.destination.direct === true)
      return post(entry.destination, message);
    const parent = await ledger.reference(entry.destinationKey, entry.thread.parentKey);
    if (parent === undefined) {
      if (entry.thread.parentInstead === undefined) return post(entry.destination, message);
      // The digest's first part was never posted (dropped or given up on): its later parts would
      // be the channel's only sight of the digest, out of context. They go with it.
      const reason = 'the first part of its digest was not posted in the channel';
      return { status: 'rejected', code: 'digest_head_missing', reason, scope: 'message' };
    }
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
      if (opening.status === 'refused') return this.#instead(adapter, entry, parent, message, opening, post);
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
      return this.#instead(adapter, entry, parent, message, outcome, post);
    }
    // Whichever instance noted a problem, a reply through the thread clears it. Only a stored
    // problem costs a write; checking costs the subscriptions' version read. Not awaited: the
    // reply is posted and not yet recorded, and a slow store or a busy subscriptions lock here
    // would widen the window in which a crash posts it twice.
    if (outcome.status === 'delivered') void this.#note(entry.subscriptionIds, undefined);
    return outcome;
  }

  /**
   * The thread refused the reply. A comment goes top-level with a note; a digest's later part
   * never does (one message per digest): its first part is edited to count the rest and say
   * where to see them, and the part is settled with that edit's outcome. Each later part of a
   * digest whose thread refused makes the same edit, so it holds whichever of them is tried.
   */
  async #instead(
    adapter: ChatAdapter,
    entry: OutboxEntry,
    parent: PostedReference,
    message: Message,
    why: { code: string; reason: string },
    post: (destination: Destination, message: Message) => Promise<DeliveryOutcome>,
  ): Promise<DeliveryOutcome> {
    const replacement = entry.thread?.parentInstead;
    if (replacement === undefined) return this.#topLevel(entry, message, why, post);
    await this.#note(entry.subscriptionIds, {
      code: why.code,
      reason: why.reason,
      at: this.#deps.clock.now(),
    });
    if (adapter.edit === undefined) {
      const reason = `its thread refused it (${why.code}) and ${adapter.platform} cannot edit the digest`;
      return { status: 'rejected', code: why.code, reason, scope: 'message' };
    }
    const outcome = await adapter.edit(
      entry.destination,
      {
        messageId: parent.messageId,
        ...(parent.threadId === undefined ? {} : { threadId: parent.threadId }),
        ...(parent.channelId === undefined ? {} : { channelId: parent.channelId }),
      },
      withMuteActions(replacement, entry.subscriptionIds),
    );
    // Settled as the part's delivery, at the digest's message: nothing is posted for it again.
    return outcome.status === 'delivered' ? { ...outcome, platformMessageId: parent.messageId } : outcome;
  }

  async #topLevel(
    entry: OutboxEntry,
    message: Message,
    why: { code: string; reason: string },
    post: (destination: Destination, message: Message) => Promise<DeliveryOutcome>,
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

/** What a delivery says of its item: the key, and the record where the entry keeps one. */
export function deliveredItem(entry: Pick<OutboxEntry, 'itemKey' | 'record'>): DeliveredItem {
  return { key: entry.itemKey, ...(entry.record === undefined ? {} : { record: entry.record }) };
}

/** Says in the message why it is in the channel rather than its post's thread. */
export function withThreadNote(message: Message, code: string): Message {
  const note = `Reply to a post above; its thread is unavailable (${code})`;
  if (message.layout === 'line') return { ...message, title: `↳ ${message.title}` };
  return { ...message, footer: message.footer ? `${note} · ${message.footer}` : note };
}

/** The item key of the post a comment is on: where a channel that received that post threads it. */
export function threadParentKey(item: FeedItem): string | undefined {
  if (item.record.type !== 'comment') return undefined;
  const { comment } = item.record;
  const postId = comment.postId ?? comment.post?.id;
  return postId === undefined ? undefined : itemKey('posts', 'new', postId);
}

/**
 * The thread an item should go under for a subscription, or undefined for a top-level message.
 * The parent is only named here; whether it was posted in the channel is asked when the reply is
 * delivered (it may be delivered after the comment was queued).
 */
export function entryThread(
  item: FeedItem,
  subscription: { threading?: ThreadSettings; filters: FeedFilters },
): EntryThread | undefined {
  if (subscription.threading?.off) return undefined;
  const parentKey = threadParentKey(item);
  if (parentKey === undefined) return undefined;
  const broadcast = subscription.threading?.broadcast === true && matchesKeywords(item, subscription.filters);
  const title = item.record.type === 'comment' ? item.record.comment.post?.name : undefined;
  return { parentKey, ...(broadcast ? { broadcast: true as const } : {}), ...(title ? { title } : {}) };
}

/** A comment matches the subscription's keywords (none = no broadcast: there is nothing to match). */
function matchesKeywords(item: FeedItem, filters: FeedFilters): boolean {
  if (!filters.keywords?.length) return false;
  return matchesFilters(item, { keywords: filters.keywords });
}
