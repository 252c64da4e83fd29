import { loadConfig } from '../config/load-config.js';
import { createEngine, createItemComposer } from '../engine/index.js';
import { createMetrics } from '../observability/metrics.js';
import type { CommandHandler, CommandReply, Logger } from '../ports/index.js';
import { systemClock } from '../ports/index.js';
import { createStore } from '../store/index.js';
import { replyRenderer } from './platforms.js';
import { storeNamespace } from './sandbox.js';
import { buildCommandHandler, engineSettings, openDirectory } from './wiring.js';

export const LOOKUP_PLATFORMS = ['console', 'slack', 'discord'] as const;
export type LookupPlatform = (typeof LOOKUP_PLATFORMS)[number];

/** What `directory-bot lookup` needs for one platform: the handler and how that platform shows a reply. */
export interface LookupSession {
  handler: CommandHandler;
  /**
   * Console: a string to print; Slack/Discord: the payload the platform would receive, given the
   * command text as chat passes it (the "Share in channel" button re-runs it).
   */
  render: (reply: CommandReply, commandText: string) => unknown;
  close(): Promise<void>;
}

/**
 * A one-shot command handler for `directory-bot lookup`: the configured directory (or an
 * embedded emulator), the configured store, no chat platform.
 */
export async function openLookupSession(platform: LookupPlatform, logger: Logger): Promise<LookupSession> {
  const config = loadConfig();
  const store = createStore({ url: config.store.url, ...storeNamespace(config) });
  const metrics = createMetrics();
  const { client, emulator, id } = await openDirectory(config, logger, metrics, () => undefined);
  // Never started: it answers the one command from the store and never polls or delivers.
  const engine = createEngine({
    store,
    client,
    directoryId: id,
    adapters: [],
    clock: systemClock,
    compose: createItemComposer(systemClock),
    // Never clears notifications, even if it were started by mistake: a lookup only reads.
    settings: { ...engineSettings(config), clearNotifications: false },
  });
  return {
    handler: buildCommandHandler(config, { client, engine, store, directoryId: id, metrics }),
    render: await replyRenderer(platform),
    async close() {
      await client.close();
      await emulator?.close();
      await store.close();
    },
  };
}
