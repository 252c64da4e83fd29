/**
 * A posting limit as a platform publishes it: a token bucket (Slack's "about one per second,
 * short bursts allowed", and the adapter's own workspace pacing), or a fixed window (Discord's
 * "5 per 5 s" per channel and "50 per second" global, as its headers and our fake count them).
 */
export type PostingLimit =
  | { kind: 'bucket'; ratePerSecond: number; burst: number }
  | { kind: 'window'; limit: number; windowMs: number };

/** The shortest time from the first send to the start of the `count`-th send that `limit` allows. */
export function minimumSpanMs(limit: PostingLimit, count: number): number {
  if (count <= 1) return 0;
  if (limit.kind === 'bucket') return (Math.max(0, count - limit.burst) / limit.ratePerSecond) * 1000;
  return Math.floor((count - 1) / limit.limit) * limit.windowMs;
}

export interface FanOutCeiling {
  messages: number;
  /** Shortest time the limits allow for the whole burst, ms. */
  minimumSpanMs: number;
  /** messages ÷ minimumSpanMs: the best achievable rate, messages per second. */
  messagesPerSecond: number;
  /** Which limit binds. */
  binding: 'per-channel' | 'global';
}

/**
 * The ceiling for `channels × perChannel` messages: every channel may go in parallel under its
 * own limit, all of them share the global one. It is min(per-channel rate × channels, global
 * rate) with the bursts both limits grant counted, so a short burst is not scored against a
 * sustained rate it never needed.
 */
export function fanOutCeiling(input: {
  channels: number;
  perChannel: number;
  perChannelLimit: PostingLimit;
  globalLimit: PostingLimit;
}): FanOutCeiling {
  const messages = input.channels * input.perChannel;
  const channelSpan = minimumSpanMs(input.perChannelLimit, input.perChannel);
  const globalSpan = minimumSpanMs(input.globalLimit, messages);
  const span = Math.max(channelSpan, globalSpan);
  return {
    messages,
    minimumSpanMs: span,
    messagesPerSecond: span > 0 ? messages / (span / 1000) : Number.POSITIVE_INFINITY,
    binding: globalSpan >= channelSpan ? 'global' : 'per-channel',
  };
}
