import { DiscordAPIError, RateLimitError, type REST, Routes } from 'discord.js';
import type { DeliveryOutcome, Destination, Message, ThreadOpening } from '../../src/ports/index.js';
import { outcomeOfError, postMessage } from './deliver.js';

/** "A thread has already been created for this message": its id is the message's. */
const THREAD_ALREADY_CREATED = 160004;
/** "Thread is archived": posting (or anything else) into it until it is unarchived. */
const ARCHIVED_THREAD = 50083;
/** Codes that mean "not this thread", while the channel itself still takes posts. */
const THREAD_REFUSALS: Record<number, string> = {
  50001: 'cannot_create_threads',
  50013: 'cannot_create_threads',
  10003: 'thread_deleted',
  10008: 'parent_message_deleted',
  50024: 'threads_not_supported',
  160005: 'thread_locked',
  [ARCHIVED_THREAD]: 'archived_thread',
};
/** Discord's longest thread name. */
const THREAD_NAME_MAX = 100;
/** A week: a post's comments may come days after it (Discord's longest auto-archive). */
const AUTO_ARCHIVE_MINUTES = 10_080;

function codeOf(error: unknown): number | undefined {
  if (!(error instanceof DiscordAPIError)) return undefined;
  return typeof error.code === 'number' ? error.code : Number(error.code);
}

const describe = (error: DiscordAPIError) => `${error.status} ${error.message} (code ${error.code})`;

/**
 * Starts the public thread under a posted message (`POST /channels/{id}/messages/{id}/threads`;
 * needs Create Public Threads). Idempotent as the port asks: a thread started from a message has
 * the message's id, and Discord answers 160004 to a second start, which is the thread we wanted.
 */
export async function openThread(
  rest: REST,
  destination: Destination,
  parentMessageId: string,
  name: string,
): Promise<ThreadOpening> {
  const threadName = [...(name.trim() || 'Comments')].slice(0, THREAD_NAME_MAX).join('');
  try {
    const created = (await rest.post(Routes.threads(destination.channelId, parentMessageId), {
      body: { name: threadName, auto_archive_duration: AUTO_ARCHIVE_MINUTES },
    })) as { id?: unknown };
    return { status: 'opened', threadId: typeof created.id === 'string' ? created.id : parentMessageId };
  } catch (error) {
    const code = codeOf(error);
    if (code === THREAD_ALREADY_CREATED) return { status: 'opened', threadId: parentMessageId };
    const refusal = code === undefined ? undefined : THREAD_REFUSALS[code];
    if (refusal !== undefined && error instanceof DiscordAPIError) {
      const hint = code === 50001 || code === 50013 ? 'the bot needs Create Public Threads here: ' : '';
      return { status: 'refused', code: refusal, reason: `${hint}${describe(error)}` };
    }
    const outcome = outcomeOfError(error);
    if (outcome.status === 'rejected')
      return { status: 'refused', code: outcome.code, reason: outcome.reason };
    if (outcome.status === 'delivered') return { status: 'opened', threadId: parentMessageId };
    return outcome;
  }
}

/**
 * Posts a reply into its thread (with its nonce, so a repeat returns the same message). An
 * archived thread is unarchived (`PATCH /channels/{thread}` `archived: false`, allowed with Send
 * Messages in Threads while it is not locked) and the post tried once more; a thread that still
 * refuses is a `thread` rejection, so the core posts the reply top-level and tells the
 * subscription why.
 */
export async function postInThread(
  rest: REST,
  destination: Destination,
  message: Message,
  idempotencyKey: string,
): Promise<DeliveryOutcome> {
  const threadId =
    destination.thread?.threadId ?? destination.thread?.parentMessageId ?? destination.channelId;
  const first = await postMessage(rest, threadId, message, idempotencyKey);
  if (first.status !== 'rejected' || first.code !== 'archived_thread') return inThread(first, threadId);
  try {
    await rest.patch(Routes.channel(threadId), { body: { archived: false } });
  } catch (error) {
    // Rate limited: the outbox tries the reply again after the wait, unarchiving included.
    if (error instanceof RateLimitError) return outcomeOfError(error);
    const why = error instanceof DiscordAPIError ? describe(error) : String(error);
    const reason = `the thread is archived and unarchiving it was refused: ${why}`;
    return { status: 'rejected', code: 'archived_thread', reason, scope: 'thread' };
  }
  return inThread(await postMessage(rest, threadId, message, idempotencyKey), threadId);
}

/**
 * A reply lives in its thread's channel: the delivered outcome says so, for its later edits. The
 * bucket Discord stated is the thread's own (a thread is a channel, with its own limit), not the
 * destination's: reported as the destination's, one busy thread would hold every post to its
 * parent channel after every reply. discord.js keeps it against the thread (the route's channel
 * id), and a reply into a thread with nothing left comes back rate limited without asking: that
 * one does wait at the head of the channel's queue (the outbox paces destinations, not threads).
 */
function inThread(outcome: DeliveryOutcome, threadId: string): DeliveryOutcome {
  if (outcome.status !== 'delivered') return asThreadRefusal(outcome);
  const { bucket: _threads, ...delivered } = outcome;
  return { ...delivered, channelId: threadId };
}

/** What `outcomeOfError` calls an answer that, inside a thread, is about the thread and not the channel. */
const THREAD_OUTCOME_CODES: Record<string, string> = {
  missing_access: 'cannot_send_in_threads',
  missing_permissions: 'cannot_send_in_threads',
  unknown_channel: 'thread_deleted',
  archived_thread: 'archived_thread',
  thread_locked: 'thread_locked',
};

/** A refusal in a thread concerns the thread: the channel may still take a top-level post. */
function asThreadRefusal(outcome: DeliveryOutcome): DeliveryOutcome {
  if (outcome.status !== 'rejected' || outcome.scope === 'message') return outcome;
  const code = THREAD_OUTCOME_CODES[outcome.code];
  if (code === undefined) return outcome;
  const hint = code === 'cannot_send_in_threads' ? 'the bot needs Send Messages in Threads here: ' : '';
  return { ...outcome, code, reason: `${hint}${outcome.reason}`, scope: 'thread' };
}
