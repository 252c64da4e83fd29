import { messageOf } from '../../errors.js';
import type { Clock } from '../../ports/index.js';
import {
  type ChatAdapter,
  DELETE_REFUSED,
  type DeliveryOutcome,
  type MessageReference,
} from '../../ports/index.js';
import type { SubscriptionRepository } from '../../subscriptions/index.js';
import type { DeliveredLedger } from '../delivered-ledger.js';
import type { DeliveryLogOutcome, DeliveryRecord, DeliveryRecorder } from '../delivery-log.js';
import { sendEdit } from '../edits.js';
import { withMuteActions } from '../mute-actions.js';
import { EDIT_SUFFIX, idempotencyKeyOf, type Outbox, type OutboxEntry } from '../outbox.js';
import type { ThreadDelivery } from '../threads.js';
import type { Pacer } from './pacer.js';

/** What an attempt changes in the queue holding its entry: the outbox, or a worker's shared FIFO. */
export type AttemptQueue = Pick<
  Outbox,
  | 'remove'
  | 'reschedule'
  | 'notePosted'
  | 'noteChecked'
  | 'backOffInMemory'
  | 'dropDestination'
  | 'enqueueEdit'
>;

export interface AttemptDeps {
  outbox: AttemptQueue;
  ledger: DeliveredLedger;
  subscriptions: SubscriptionRepository;
  clock: Clock;
  /** The process's own pacer, or the one every worker shares (workers/shared-pacer.ts). */
  pacer: Pick<Pacer, 'stated' | 'rateLimited'>;
  threads: ThreadDelivery;
  maxAttempts: number;
  /**
   * Where settled attempts are recorded for `/directory why` (the delivery log); absent, nothing
   * is. Written after the entry is settled, and a failed write is only reported (`log-failed`).
   */
  log?: DeliveryRecorder | undefined;
  onEvent?: ((event: DispatchEvent) => void) | undefined;
}

/**
 * How long after a channel refused the bot for good (archived, bot removed) an entry arriving
 * for it is checked against its subscriptions' pauses before it is sent. Routing that read the
 * subscriptions just before the pause was written can still queue one; without the check it
 * would be sent, and refused, again.
 */
const REFUSED_RECHECK_MS = 60_000;

/**
 * One try at one outbox entry: never post what the ledger says was posted, send, then settle
 * what the platform answered. A store failure around the post keeps the entry in memory.
 */
export class DeliveryAttempts {
  readonly #deps: AttemptDeps;
  /** Destinations that refused the bot for good lately, and when (see REFUSED_RECHECK_MS). */
  readonly #refused = new Map<string, number>();

  constructor(deps: AttemptDeps) {
    this.#deps = deps;
  }

  /** `answered` is told when the platform answered. */
  async run(
    adapter: ChatAdapter,
    entry: OutboxEntry,
    answered: (at: number) => void,
    startedAt: number,
  ): Promise<void> {
    const { outbox, ledger, clock, onEvent, pacer } = this.#deps;
    try {
      if (entry.posted) {
        // Posted already; only recording it failed. Never post it again.
        await this.#recordDelivered(adapter, entry, startedAt);
        return;
      }
      if (await this.#pausedMeanwhile(entry)) return;
      // After an attempt whose outcome may not have been recorded (or after a takeover),
      // check before posting. If the store cannot answer, wait: posting blind could repeat.
      // An edit is safe to repeat: it sets the message's whole content.
      if (entry.edit === undefined && (entry.attempts > 0 || entry.recovered)) {
        const [already] = await ledger.delivered([
          { destination: entry.destinationKey, itemKey: entry.itemKey },
        ]);
        onEvent?.({
          type: 'ledger-checked',
          entry,
          alreadyPosted: already === true,
          takeover: entry.recovered === true,
        });
        if (already) {
          await outbox.remove(entry);
          return;
        }
        outbox.noteChecked(entry);
      }
    } catch (error) {
      this.#backOffInMemory(entry, error);
      return;
    }

    let outcome: DeliveryOutcome;
    try {
      outcome = await this.#send(adapter, entry);
    } catch (error) {
      // An adapter should return outcomes, not throw; treat a throw as transient.
      onEvent?.({ type: 'error', entry, error });
      outcome = {
        status: 'failed',
        code: 'adapter_threw',
        reason: messageOf(error),
      };
    }
    answered(clock.now());
    if (outcome.status === 'delivered') pacer.stated(entry.destinationKey, outcome.bucket, clock.now());
    try {
      await this.#settle(adapter, entry, outcome, startedAt);
    } catch (error) {
      this.#backOffInMemory(entry, error);
    }
  }

  /**
   * Drops an entry for a destination that refused the bot lately when every subscription it was
   * routed for is paused (or gone) by now: it was routed just before the pause.
   */
  async #pausedMeanwhile(entry: OutboxEntry): Promise<boolean> {
    const { outbox, subscriptions, clock, onEvent } = this.#deps;
    const refusedAt = this.#refused.get(entry.destinationKey);
    if (refusedAt === undefined || entry.subscriptionIds.length === 0) return false;
    if (clock.now() - refusedAt > REFUSED_RECHECK_MS) {
      this.#refused.delete(entry.destinationKey);
      return false;
    }
    const { platform, channelId } = entry.destination;
    const routedFor = (await subscriptions.index())
      .forChannel(platform, channelId)
      .filter((s) => entry.subscriptionIds.includes(s.id));
    if (routedFor.some((s) => s.paused === undefined)) return false;
    const pause = routedFor.find((s) => s.paused !== undefined)?.paused;
    const code = pause?.code ?? 'unsubscribed';
    const reason = pause === undefined ? 'its subscriptions are gone' : `paused: ${pause.reason}`;
    await outbox.remove(entry);
    onEvent?.({ type: 'dropped', entry, code, reason });
    this.#log(entry, 'dropped', { code, reason });
    return true;
  }

  /** Mark delivered only after the platform confirmed the post, then forget the entry. */
  async #recordDelivered(adapter: ChatAdapter, entry: OutboxEntry, startedAt: number): Promise<void> {
    const { outbox, ledger, clock, onEvent } = this.#deps;
    await ledger.markDelivered(entry.destinationKey, entry.itemKey, entry.reference);
    await outbox.remove(entry);
    onEvent?.({ type: 'delivered', entry, ms: clock.now() - startedAt });
    this.#log(entry, 'delivered', placeOf(adapter, entry, entry.reference));
  }

  /**
   * Hands the settled attempt to the delivery log, which writes it with others settling about
   * now (see DeliveryLog): the attempt does not wait for it. The entry is settled already
   * (recorded, removed or rescheduled), so a failed write loses only the record: it never fails
   * the delivery, nor makes it be tried again. A person's DMs are not logged: the log is per channel.
   */
  #log(
    entry: OutboxEntry,
    outcome: DeliveryLogOutcome,
    details: Pick<DeliveryRecord, 'code' | 'reason' | 'messageId' | 'link'> = {},
  ): void {
    const { log, clock, onEvent } = this.#deps;
    if (log === undefined || entry.destination.direct === true) return;
    const itemKey = entry.edit === undefined ? entry.itemKey : entry.itemKey.slice(0, -EDIT_SUFFIX.length);
    const title = entry.message.title;
    log
      .record({
        at: clock.now(),
        destinationKey: entry.destinationKey,
        itemKey,
        outcome,
        ...details,
        ...(title ? { title } : {}),
        subscriptionIds: entry.subscriptionIds,
      })
      .catch((error: unknown) => onEvent?.({ type: 'log-failed', entry, error }));
  }

  /**
   * The store failed while checking or recording: keep the entry, back off in memory, and
   * check the ledger next time so a delivered post is not repeated.
   */
  #backOffInMemory(entry: OutboxEntry, error: unknown): void {
    this.#deps.outbox.backOffInMemory(entry, this.#deps.clock.now() + backoff(entry.attempts + 1));
    this.#deps.onEvent?.({ type: 'error', entry, error });
  }

  /** A channel post, or a direct message where the destination is a person (a reminder). */
  #send(adapter: ChatAdapter, entry: OutboxEntry): Promise<DeliveryOutcome> {
    if (entry.edit !== undefined) return sendEdit(adapter, entry, entry.edit);
    if (entry.destination.direct !== true) {
      // A channel's message gets "Mute this subscription" for the subscription it is delivered for;
      // a reply goes under its post's message when the channel has it (threads.ts).
      return this.#deps.threads.send(adapter, entry, withMuteActions(entry.message, entry.subscriptionIds));
    }
    if (adapter.deliverDirect === undefined) {
      return Promise.resolve({
        status: 'rejected',
        code: 'direct_messages_unsupported',
        reason: `${adapter.platform} cannot send direct messages`,
        scope: 'message',
      });
    }
    return adapter.deliverDirect(entry.destination, entry.message, {
      idempotencyKey: idempotencyKeyOf(entry),
    });
  }

  /**
   * What the platform's answer means for the entry: recorded as delivered, dropped (one message),
   * the destination paused (rejected for good), given up on, or rescheduled by the backoff or the
   * platform's stated wait. Store errors are `run`'s to handle.
   */
  async #settle(
    adapter: ChatAdapter,
    entry: OutboxEntry,
    outcome: DeliveryOutcome,
    startedAt: number,
  ): Promise<void> {
    const { outbox, subscriptions, clock, onEvent, maxAttempts } = this.#deps;
    if (outcome.status === 'rejected' && outcome.code === DELETE_REFUSED && entry.edit?.delete) {
      await this.#markInstead(entry, outcome.reason);
      return;
    }
    if (outcome.status === 'delivered' && entry.edit !== undefined) {
      await outbox.remove(entry);
      onEvent?.({ type: 'edited', entry, ms: clock.now() - startedAt });
      this.#log(entry, entry.edit.delete ? 'deleted' : 'edited', placeOf(adapter, entry, entry.edit));
      return;
    }
    if (outcome.status === 'delivered') {
      // Kept on the entry before the ledger is written: if that write fails, the retry records
      // this post instead of posting again.
      outbox.notePosted(
        entry,
        outcome.platformMessageId === undefined
          ? undefined
          : {
              messageId: outcome.platformMessageId,
              postedAt: clock.now(),
              ...(outcome.threadId === undefined ? {} : { threadId: outcome.threadId }),
              ...(outcome.channelId === undefined ? {} : { channelId: outcome.channelId }),
              ...(entry.shown === undefined ? {} : { shown: entry.shown }),
            },
      );
      await this.#recordDelivered(adapter, entry, startedAt);
      return;
    }
    // A deletion that cannot go is marked instead: the ledger already says "deleted", so nothing
    // else would ever mark it.
    if (outcome.status === 'rejected' && outcome.scope === 'message' && entry.edit?.delete) {
      await this.#markInstead(entry, outcome.reason);
      return;
    }
    // A person who refuses DMs holds no channel and no subscription: drop that one message.
    if (outcome.status === 'rejected' && (outcome.scope === 'message' || entry.destination.direct)) {
      await outbox.remove(entry);
      onEvent?.({ type: 'dropped', entry, code: outcome.code, reason: outcome.reason });
      this.#log(entry, 'dropped', { code: outcome.code, reason: outcome.reason });
      return;
    }
    if (outcome.status === 'rejected') {
      const now = clock.now();
      for (const [key, at] of this.#refused) if (now - at > REFUSED_RECHECK_MS) this.#refused.delete(key);
      this.#refused.set(entry.destinationKey, now);
      await subscriptions.pauseDestination(
        entry.destination.platform,
        entry.destination.channelId,
        outcome.code,
        outcome.reason,
      );
      const dropped = await outbox.dropDestination(entry.destinationKey);
      onEvent?.({
        type: 'rejected',
        entry,
        code: outcome.code,
        reason: outcome.reason,
        dropped: dropped.length,
      });
      this.#log(entry, 'rejected', { code: outcome.code, reason: outcome.reason });
      return;
    }
    const rateLimited = outcome.retryAfterMs !== undefined;
    if (!rateLimited && entry.attempts + 1 >= maxAttempts) {
      if (entry.edit?.delete) return this.#markInstead(entry, `gave up deleting: ${outcome.reason}`);
      await outbox.remove(entry);
      onEvent?.({
        type: 'abandoned',
        entry,
        reason: `${outcome.code}: ${outcome.reason} (after ${maxAttempts} attempts)`,
      });
      this.#log(entry, 'abandoned', { code: outcome.code, reason: outcome.reason });
      return;
    }
    const retryInMs = outcome.retryAfterMs ?? backoff(entry.attempts);
    if (rateLimited) {
      this.#deps.pacer.rateLimited(entry, adapter, retryInMs, outcome.global === true, clock.now());
    }
    // A wait for the whole platform holds this entry by the platform's pace, not its own notBefore.
    const notBefore = outcome.global === true ? clock.now() : clock.now() + retryInMs;
    await outbox.reschedule(entry, notBefore, !rateLimited);
    onEvent?.({ type: 'failed', entry, code: outcome.code, reason: outcome.reason, retryInMs });
    // A rate limit is the platform's pace, not the message's failure: the outbox shows it waiting.
    if (!rateLimited) this.#log(entry, 'failed', { code: outcome.code, reason: outcome.reason });
  }

  /**
   * The platform refused to delete the message (no permission, or it cannot delete): the entry
   * becomes the edit marking it removed, due now, and its subscriptions note why for
   * `/directory status`.
   */
  async #markInstead(entry: OutboxEntry, reason: string): Promise<void> {
    const deps = this.#deps;
    const { delete: _delete, ...mark } = entry.edit!;
    await deps.outbox.enqueueEdit({ ...entry, edit: mark, attempts: 0, notBefore: deps.clock.now() });
    const problem = { code: DELETE_REFUSED, reason, at: deps.clock.now() };
    await deps.subscriptions.noteProblem('removalProblem', entry.subscriptionIds, problem);
  }
}

/** Where a posted message is, for its log record: its id and, where the platform has one, a link. */
function placeOf(
  adapter: ChatAdapter,
  entry: OutboxEntry,
  reference: MessageReference | undefined,
): Pick<DeliveryRecord, 'messageId' | 'link'> {
  if (reference === undefined) return {};
  const { messageId, threadId, channelId } = reference;
  const link = adapter.messageLink?.(entry.destination, {
    messageId,
    ...(threadId === undefined ? {} : { threadId }),
    ...(channelId === undefined ? {} : { channelId }),
  });
  return { messageId, ...(link === undefined ? {} : { link }) };
}

const BASE_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 10 * 60_000;

/** Exponential backoff with full jitter, capped. */
export function backoff(attempts: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempts);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** What became of one outbox entry's attempt (logged and counted by the engine). */
export type DispatchEvent =
  | { type: 'delivered'; entry: OutboxEntry; ms: number }
  | { type: 'edited'; entry: OutboxEntry; ms: number }
  | { type: 'rejected'; entry: OutboxEntry; code: string; reason: string; dropped: number }
  | { type: 'dropped'; entry: OutboxEntry; code: string; reason: string }
  | { type: 'failed'; entry: OutboxEntry; code: string; reason: string; retryInMs: number }
  | { type: 'abandoned'; entry: OutboxEntry; reason: string }
  | { type: 'error'; entry: OutboxEntry; error: unknown }
  /** The delivery stands; only its record in the delivery log was lost. */
  | { type: 'log-failed'; entry: OutboxEntry; error: unknown }
  /**
   * The delivered ledger was read before a send whose earlier outcome is unknown (a retry, or a
   * takeover: `takeover`): `alreadyPosted`, the entry is settled without sending it again.
   */
  | { type: 'ledger-checked'; entry: OutboxEntry; alreadyPosted: boolean; takeover: boolean };
