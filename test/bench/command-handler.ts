import { buildCommandHandler, type CommandParts } from '../../src/app/wiring.js';
import type { CommandHandler } from '../../src/ports/index.js';

/**
 * The real `/directory` handler as the app builds it, with the per-person limit lifted: a
 * benchmark sends many commands from few people and measures the ack, not the limiter.
 */
export function createBenchCommandHandler(parts: CommandParts): CommandHandler {
  return buildCommandHandler(
    { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
    parts,
    { userRateLimit: { perMinute: 1_000_000 } },
  );
}
