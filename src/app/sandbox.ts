import type { Config } from '../config/config.js';
import { FEED_NAMES } from '../feeds/feed-names.js';
import type { SubscriptionSeed } from '../subscriptions/index.js';

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
