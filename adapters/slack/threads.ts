import type { DeliveryOutcome, Destination } from '../../src/ports/index.js';

/**
 * Slack threads: a reply is a chat.postMessage with the parent's `ts` as `thread_ts` (Slack needs
 * no thread created first), and `reply_broadcast` to also show it in the channel. Only the scopes
 * a top-level post needs (`chat:write`); nothing to add to the manifest.
 */
export function threadFields(
  destination: Destination,
): Record<never, never> | { thread_ts: string } | { thread_ts: string; reply_broadcast: true } {
  const thread = destination.thread;
  if (thread === undefined) return {};
  if (thread.broadcast) return { thread_ts: thread.parentMessageId, reply_broadcast: true };
  return { thread_ts: thread.parentMessageId };
}

/**
 * Answers about the thread rather than the channel: the parent was deleted, cannot take replies,
 * or its ts is unknown. The channel still takes posts, so the core posts the reply top-level.
 */
const THREAD_ERRORS: ReadonlySet<string> = new Set([
  'thread_not_found',
  'invalid_thread_ts',
  'cannot_reply_to_message',
  'message_not_found',
]);

/** A thread answer as a `thread` rejection; undefined for anything else (or a post that was no reply). */
export function threadRejection(
  destination: Destination,
  code: string | undefined,
): DeliveryOutcome | undefined {
  if (destination.thread === undefined || code === undefined || !THREAD_ERRORS.has(code)) return undefined;
  return {
    status: 'rejected',
    code,
    reason: `Slack would not take a reply under message ${destination.thread.parentMessageId} (${code})`,
    scope: 'thread',
  };
}
