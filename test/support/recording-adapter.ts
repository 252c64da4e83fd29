import type {
  AdapterContext,
  ChatAdapter,
  DeliveryOutcome,
  DeliveryPacing,
  Destination,
  Message,
  MessageReference,
  ThreadTarget,
} from '../../src/ports/index.js';

export interface RecordedEdit {
  channelId: string;
  messageId: string;
  message: Message;
  /** When it was made, on the adapter's clock. */
  at: number;
}

export interface RecordedDelivery {
  channelId: string;
  message: Message;
  idempotencyKey: string;
  /** Epoch ms the post was made. */
  at: number;
  /** A reply: the message it was posted under (absent: top-level). */
  thread?: ThreadTarget;
}

/** How one channel behaves; default: accept everything at once. */
export type ChannelBehaviour =
  | { kind: 'accept' }
  | { kind: 'reject'; code: string }
  | { kind: 'fail'; times: number; retryAfterMs?: number }
  | { kind: 'slow'; ms: number };

/**
 * A real in-memory chat platform for core tests: it implements the port, records what
 * it was asked to post, and lets a test make channels fail, vanish or crawl.
 */
export class RecordingAdapter implements ChatAdapter {
  readonly platform: string;
  readonly pacing: DeliveryPacing;
  readonly deliveries: RecordedDelivery[] = [];
  readonly attempts: RecordedDelivery[] = [];
  /** Edits in place the platform accepted, in order. */
  readonly edits: RecordedEdit[] = [];
  /** Message ids that are gone (deleted in the channel): editing one is refused for the message. */
  readonly goneMessages = new Set<string>();
  readonly #behaviours = new Map<string, ChannelBehaviour>();
  /** Keeps replies in threads, as Slack and Discord do (off: like the console). */
  repliesInThreads = false;
  /** Channels whose threads refuse every reply (no permission to post in threads). */
  readonly refusingThreads = new Set<string>();
  #nextId = 0;

  readonly #now: () => number;

  /** `now`: the clock edits are stamped with (a test's manual clock); default the system's. */
  constructor(platform = 'console', pacing?: DeliveryPacing, now: () => number = Date.now) {
    this.#now = now;
    this.platform = platform;
    this.pacing = pacing ?? {
      perDestination: { ratePerSecond: 1000, burst: 1000 },
      global: { ratePerSecond: 10_000, burst: 10_000 },
    };
  }

  behave(channelId: string, behaviour: ChannelBehaviour): void {
    this.#behaviours.set(channelId, behaviour);
  }

  delivered(channelId: string): Message[] {
    return this.deliveries.filter((d) => d.channelId === channelId).map((d) => d.message);
  }

  async start(_context: AdapterContext): Promise<void> {}
  async stop(): Promise<void> {}
  health() {
    return { ready: true };
  }

  async deliver(
    destination: Destination,
    message: Message,
    options: { idempotencyKey: string },
  ): Promise<DeliveryOutcome> {
    const record: RecordedDelivery = {
      channelId: destination.channelId,
      message,
      idempotencyKey: options.idempotencyKey,
      at: Date.now(),
      ...(destination.thread === undefined ? {} : { thread: destination.thread }),
    };
    this.attempts.push(record);
    if (destination.thread !== undefined && this.refusingThreads.has(destination.channelId)) {
      const reason = 'Missing Permissions: Send Messages in Threads';
      return { status: 'rejected', code: 'thread_refused', reason, scope: 'thread' };
    }
    const behaviour = this.#behaviours.get(destination.channelId) ?? { kind: 'accept' };
    switch (behaviour.kind) {
      case 'reject':
        return {
          status: 'rejected',
          code: behaviour.code,
          reason: `channel ${destination.channelId}: ${behaviour.code}`,
        };
      case 'fail':
        if (behaviour.times > 0) return failOnce(behaviour);
        break;
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, behaviour.ms));
        break;
      case 'accept':
        break;
    }
    this.deliveries.push(record);
    this.#nextId += 1;
    return { status: 'delivered', platformMessageId: `m${this.#nextId}` };
  }

  /** The message `messageId` as the channel shows it now: its latest edit, or as posted. */
  current(messageId: string): Message | undefined {
    const edited = this.edits.filter((e) => e.messageId === messageId).at(-1);
    return edited?.message ?? this.deliveries[Number(messageId.slice(1)) - 1]?.message;
  }

  async edit(
    destination: Destination,
    reference: MessageReference,
    message: Message,
  ): Promise<DeliveryOutcome> {
    const behaviour = this.#behaviours.get(destination.channelId) ?? { kind: 'accept' };
    if (behaviour.kind === 'fail' && behaviour.times > 0) return failOnce(behaviour);
    if (this.goneMessages.has(reference.messageId)) {
      return { status: 'rejected', code: 'message_not_found', reason: 'deleted', scope: 'message' };
    }
    this.edits.push({
      channelId: destination.channelId,
      messageId: reference.messageId,
      message,
      at: this.#now(),
    });
    return { status: 'delivered', platformMessageId: reference.messageId };
  }
}

/** One of a failing channel's failures: a rate limit, with its retry hint when it has one. */
function failOnce(behaviour: { times: number; retryAfterMs?: number }): DeliveryOutcome {
  behaviour.times -= 1;
  return {
    status: 'failed',
    code: 'rate_limited',
    reason: 'try later',
    ...(behaviour.retryAfterMs !== undefined ? { retryAfterMs: behaviour.retryAfterMs } : {}),
  };
}
