import type { Config } from '../config/config.js';
import { FEED_NAMES } from '../feeds/feed-names.js';
import { ACTIVE_DIRECTORY_KEY, type BotStore, directoryKeys, SANDBOX_DIRECTORY_ID } from '../store/index.js';
import type { SubscriptionSeed } from '../subscriptions/index.js';
import {
  CHANNEL_ZONES_KEY,
  REMINDERS_KEY,
  SUBSCRIPTIONS_KEY,
  SUBSCRIPTIONS_VERSION_KEY,
} from '../subscriptions/index.js';

/** The sandbox's own token for its embedded emulator. */
export const SANDBOX_TOKEN = 'sandbox-token';
/** The console channel every sandbox feed prints to (the prompt's channel). */
export const SANDBOX_CHANNEL = 'sandbox';

/**
 * The store namespace the sandbox uses, apart from live bots' `directory-bot`. Subscriptions
 * are one document per namespace and seeding SUBSCRIPTIONS replaces every route seeded from
 * the environment, so a sandbox sharing live's namespace on an explicit store would drop the
 * production routes (and add its console ones). Namespaced, it never reads or writes them.
 */
export const SANDBOX_STORE_NAMESPACE = 'directory-bot-sandbox';

/** The store namespace for this configuration: the sandbox's own, or the default. */
export function storeNamespace(config: Config): { namespace?: string } {
  return isSandbox(config) ? { namespace: SANDBOX_STORE_NAMESPACE } : {};
}

/** Sandbox mode (no directory configured, or SANDBOX=true): the embedded emulator stands in for the directory. */
export function isSandbox(config: Config): boolean {
  return config.sandbox.enabled;
}

/** Whether the bot runs the console adapter, and so can offer a `directory>` prompt. */
export function wantsConsole(config: Config): boolean {
  return isSandbox(config) || config.feeds.subscriptions.some((s) => s.platform === 'console');
}

/** The configured subscriptions, plus in the sandbox every feed to the console's channel. */
export function subscriptionSeeds(config: Config): SubscriptionSeed[] {
  const seeds: SubscriptionSeed[] = [...config.feeds.subscriptions];
  if (isSandbox(config))
    for (const feed of FEED_NAMES)
      seeds.push({ platform: 'console', channelId: SANDBOX_CHANNEL, feed, filters: {} });
  return seeds;
}

/**
 * Every sandbox start is a first start. Its emulator invents its world afresh from the same seed
 * (ids start over), so what the last run left would not fit the new world: feed positions ahead
 * of every new id, reminders and queued messages about events that no longer exist, and what was
 * changed at the prompt (a subscription added, a digest put on a seeded one) kept or dropped by
 * accident of how it was stored. So all of it goes: everything about the sandbox's directory, its
 * subscriptions (seeded again at once), reminders and channel zones. Slack installations and the
 * store key's check stay: they are not the sandbox's world, and a demo workspace should not need
 * installing again.
 *
 * Unless another sandbox runs on this store right now (it holds the poller lease): then its state
 * is shared, as two live bots on one store share theirs, and nothing is deleted under it.
 * Resolves with whether the state was started afresh.
 */
export async function startSandboxAfresh(store: BotStore): Promise<boolean> {
  const directory = directoryKeys(SANDBOX_DIRECTORY_ID);
  if ((await store.leases.holder(directory.pollerLease)) !== undefined) return false;
  await store.deleteByPrefix(directory.prefix);
  await store.keyv.deleteMany([
    SUBSCRIPTIONS_KEY,
    SUBSCRIPTIONS_VERSION_KEY,
    REMINDERS_KEY,
    CHANNEL_ZONES_KEY,
    ACTIVE_DIRECTORY_KEY,
  ]);
  return true;
}
