/**
 * Threads on the chat port: a reply (a comment on a post the channel received) goes under the
 * post's message instead of into the channel. The core finds the parent (the delivered ledger
 * remembers where each post went); each adapter says how its platform threads.
 */

/** Where a reply goes: under the parent's message, in the thread started from it if one exists. */
export interface ThreadTarget {
  /** The parent's message id as its platform gave it (Slack `ts`, Discord message id). */
  parentMessageId: string;
  /** The thread's id once known (Discord: the thread channel; Slack: the parent's ts). */
  threadId?: string;
  /** Slack `reply_broadcast`: also show the reply in the channel. Ignored elsewhere. */
  broadcast?: boolean;
}

/**
 * What opening a thread under a parent gave. `opened`: the thread id (an existing thread counts:
 * Discord answers 160004 when the message already has one, and its id is the message's). `refused`:
 * this thread cannot be used (no permission to create threads, the parent is gone); the reply goes
 * to the channel instead and the subscription is told why. `failed`: transient, retry later.
 */
export type ThreadOpening =
  | { status: 'opened'; threadId: string }
  | { status: 'refused'; code: string; reason: string }
  | { status: 'failed'; code: string; reason: string; retryAfterMs?: number };

/** Why a subscription's replies went to the channel rather than a thread (shown by `/directory status`). */
export interface ThreadProblem {
  code: string;
  reason: string;
  /** Epoch ms it last happened. */
  at: number;
}
