import type {
  AdapterContext,
  ChatAdapter,
  DeliveryOutcome,
  DeliveryPacing,
  Destination,
  Message,
} from '../../src/ports/index.js';

export interface RecordedDelivery {
  channelId: string;
  message: Message;
  idempotencyKey: string;
  /** Epoch ms the post was made. */
  at: number;
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
  readonly #behaviours = new Map<string, ChannelBehaviour>();

  constructor(platform = 'console', pacing?: DeliveryPacing) {
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
    const record = {
      channelId: destination.channelId,
      message,
      idempotencyKey: options.idempotencyKey,
      at: Date.now(),
    };
    this.attempts.push(record);
    const behaviour = this.#behaviours.get(destination.channelId) ?? { kind: 'accept' };
    switch (behaviour.kind) {
      case 'reject':
        return {
          status: 'rejected',
          code: behaviour.code,
          reason: `channel ${destination.channelId}: ${behaviour.code}`,
        };
      case 'fail':
        if (behaviour.times > 0) {
          behaviour.times -= 1;
          return {
            status: 'failed',
            code: 'rate_limited',
            reason: 'try later',
            ...(behaviour.retryAfterMs !== undefined ? { retryAfterMs: behaviour.retryAfterMs } : {}),
          };
        }
        break;
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, behaviour.ms));
        break;
      case 'accept':
        break;
    }
    this.deliveries.push(record);
    return { status: 'delivered' };
  }
}
