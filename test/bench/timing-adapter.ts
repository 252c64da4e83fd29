import type {
  AdapterContext,
  ChatAdapter,
  DeliveryOptions,
  DeliveryOutcome,
  DeliveryPacing,
  Destination,
  Message,
} from '../../src/ports/index.js';

export interface TimedDelivery {
  channelId: string;
  /** The item part of the idempotency key, e.g. `comments:new:1042`. */
  itemKey: string;
  at: number;
}

/**
 * An instant chat platform that notes when each delivery arrived. Freshness measures the
 * pipeline (poll → route → queue → dispatch), so the platform itself must cost nothing and
 * never pace: its limits are set far above anything the benchmark sends.
 */
export class TimingAdapter implements ChatAdapter {
  readonly platform = 'console';
  readonly pacing: DeliveryPacing = {
    perDestination: { ratePerSecond: 10_000, burst: 10_000 },
    global: { ratePerSecond: 100_000, burst: 100_000 },
  };
  readonly deliveries: TimedDelivery[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  async start(_context: AdapterContext): Promise<void> {}
  async stop(): Promise<void> {}
  health() {
    return { ready: true };
  }

  async deliver(
    destination: Destination,
    _message: Message,
    options: DeliveryOptions,
  ): Promise<DeliveryOutcome> {
    // The dispatcher's key is `${destinationKey}|${itemKey}`.
    const itemKey = options.idempotencyKey.slice(options.idempotencyKey.indexOf('|') + 1);
    this.deliveries.push({ channelId: destination.channelId, itemKey, at: this.now() });
    return { status: 'delivered' };
  }
}
