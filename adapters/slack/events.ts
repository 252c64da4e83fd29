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
  /** A Home tab was published (views.publish answered ok). */
  | { type: 'home_published' }
  /** Someone pressed a Home tab button; `refused` when it changed nothing for them. */
  | { type: 'home_action'; action: 'pause' | 'resume' | 'remove'; refused: boolean }
  /** A command form was opened (or Slack refused to), or submitted; `deferred`: answered after the modal closed. */
  | { type: 'form'; stage: 'opened'; failed: boolean }
  | { type: 'form'; stage: 'submitted'; deferred: boolean; failed: boolean }
  /** A message button's command was run (`expired`: an id this build cannot read); its answer follows. */
  | { type: 'button'; verb: string; failed: boolean };
