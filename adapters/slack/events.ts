import type { InteractionEvent } from '../../src/ports/index.js';

/**
 * What the adapter reports for metrics and logs; the composition root decides what to count.
 * Library-like parts emit events rather than pick metric names themselves.
 */
export type SlackAdapterEvent =
  | { type: 'delivered'; channelId: string; workspaceId?: string }
  /**
   * `scope` as in the outcome: `message` drops one message, `destination` pauses the channel,
   * `thread`: the reply goes top-level instead.
   */
  | {
      type: 'rejected';
      channelId: string;
      code: string;
      scope: 'destination' | 'message' | 'thread';
      workspaceId?: string;
    }
  | { type: 'failed'; channelId: string; code: string; retryAfterMs?: number; workspaceId?: string }
  /** Slack answered 429 to one of our Web API calls. */
  | { type: 'rate_limited'; method: string; retryAfterMs: number }
  /** The bot joined a public channel after `not_in_channel`. */
  | { type: 'joined'; channelId: string }
  /** A post was retried once: after joining the channel, or with a refreshed token. */
  | { type: 'retry'; channelId: string; reason: 'not_in_channel' | 'token_expired' }
  /** A `/directory` invocation was answered; `deferred` when it went through response_url. */
  | { type: 'command'; deferred: boolean; failed: boolean }
  /** Someone pressed "Share in channel". */
  | { type: 'shared' }
  /**
   * A `link_shared` event was handled: `links` previewed, `unfurled` of them sent in one
   * chat.unfurl (0: none named a record the directory has); `failed`: Slack refused the unfurl.
   */
  | { type: 'unfurl'; links: number; unfurled: number; failed?: string }
  /** The Home tab, forms, message buttons and ignored replays: counted like every platform's. */
  | InteractionEvent;
