import type { OutboxEntry } from './outbox.js';

/** What became of one outbox entry's attempt (logged and counted by the engine). */
export type DispatchEvent =
  | { type: 'delivered'; entry: OutboxEntry; ms: number }
  | { type: 'edited'; entry: OutboxEntry; ms: number }
  | { type: 'rejected'; entry: OutboxEntry; code: string; reason: string; dropped: number }
  | { type: 'dropped'; entry: OutboxEntry; code: string; reason: string }
  | { type: 'failed'; entry: OutboxEntry; code: string; reason: string; retryInMs: number }
  | { type: 'abandoned'; entry: OutboxEntry; reason: string }
  | { type: 'error'; entry: OutboxEntry; error: unknown };
