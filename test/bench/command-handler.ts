import { createCommandHandler, directoryLinks } from '../../src/commands/index.js';
import type { StatusReport } from '../../src/commands/types.js';
import type { SubscriptionRepository } from '../../src/delivery/subscriptions.js';
import type { DirectoryClient } from '../../src/directory/index.js';
import { EMULATOR_WEB_URL } from '../../src/emulator/index.js';
import { systemClock } from '../../src/ports/clock.js';
import type { CommandHandler } from '../../src/ports/index.js';

/**
 * The real `/directory` handler as the composition root builds it, with the per-person limit
 * lifted: a benchmark sends many commands from few people and measures the ack, not the limiter.
 */
export function createBenchCommandHandler(deps: {
  client: DirectoryClient;
  subscriptions: SubscriptionRepository;
}): CommandHandler {
  const status = async (): Promise<StatusReport> => ({
    quotas: deps.client.ledger.snapshot(),
    feeds: [],
    pausedSubscriptions: (await deps.subscriptions.list()).filter((s) => s.paused),
    subscribedFeeds: new Set((await deps.subscriptions.list()).filter((s) => !s.paused).map((s) => s.feed)),
    isPoller: true,
  });
  return createCommandHandler({
    client: deps.client,
    subscriptions: deps.subscriptions,
    clock: systemClock,
    adminUserIds: [],
    status,
    defaultRemindMinutes: 15,
    directoryLinks: directoryLinks(undefined, EMULATOR_WEB_URL),
    userRateLimit: { perMinute: 1_000_000 },
  });
}
