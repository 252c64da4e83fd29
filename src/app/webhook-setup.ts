import type { Config } from '../config/config.js';
import { ConfigError } from '../errors.js';
import type { ChatAdapter, MentionSupport, WebhookKind } from '../ports/index.js';
import { mentionProblem, type SubscriptionSeed, webhookVariable } from '../subscriptions/index.js';
import type { ConfiguredWebhook } from '../webhooks/index.js';
import { identifyWebhook, WEBHOOK_KINDS } from './platforms.js';

/**
 * The environment's webhooks with their kinds, recognised from their URLs; a URL no kind takes
 * is a configuration error naming its variable (exit 78), as a malformed value is.
 */
export function configuredWebhooks(config: Pick<Config, 'webhooks'>): ConfiguredWebhook[] {
  const problems: string[] = [];
  const webhooks: ConfiguredWebhook[] = [];
  for (const webhook of config.webhooks) {
    const identified = identifyWebhook(webhook.url, webhook.secret !== undefined);
    if ('problem' in identified) {
      const secret = webhookVariable(webhook.name, 'SECRET');
      problems.push(`${webhook.variable}: ${identified.problem.replace('its signing secret', secret)}`);
      continue;
    }
    webhooks.push({
      name: webhook.name,
      kind: identified.kind.kind,
      platform: identified.kind.platform,
      url: webhook.url,
      ...(webhook.secret === undefined ? {} : { secret: webhook.secret }),
      shown: identified.shown,
      ...(identified.workspaceId === undefined ? {} : { workspaceId: identified.workspaceId }),
      variable: webhook.variable,
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return webhooks;
}

/**
 * The seeds as the engine takes them: each `webhook:<name>` entry becomes its webhook's own
 * platform (`teams-webhook:<name>`), and every entry's mentions, poster and `on-removal` are
 * checked against what its platform can do. Problems are configuration errors naming
 * SUBSCRIPTIONS: a mention the platform cannot ping is refused, not silently dropped, and a
 * webhook that cannot edit says so where `on-removal=delete` asks it to.
 */
export function resolveSeeds(
  seeds: readonly SubscriptionSeed[],
  webhooks: readonly ConfiguredWebhook[],
  adapters: readonly ChatAdapter[],
): SubscriptionSeed[] {
  const problems: string[] = [];
  const resolved: SubscriptionSeed[] = [];
  for (const seed of seeds) {
    const where = `${seed.platform}:${seed.channelId}=${seed.feed}`;
    let platform = seed.platform;
    let kind: WebhookKind | undefined;
    let workspaceId: string | undefined;
    if (seed.platform === 'webhook') {
      const webhook = webhooks.find((w) => w.name === seed.channelId);
      // loadConfig already said a webhook without its URL variable is missing.
      if (webhook === undefined) continue;
      kind = WEBHOOK_KINDS.find((k) => k.platform === webhook.platform);
      platform = webhook.platform;
      workspaceId = webhook.workspaceId;
    }
    const problem = seedProblem(seed, platform, kind, mentionSupportOf(adapters, platform));
    if (problem !== undefined) {
      problems.push(`SUBSCRIPTIONS: "${where}": ${problem}`);
      continue;
    }
    resolved.push({ ...seed, platform, ...(workspaceId === undefined ? {} : { workspaceId }) });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}

/** Whom `platform`'s adapter can ping; undefined when it pings nobody or is not configured. */
export function mentionSupportOf(
  adapters: readonly ChatAdapter[],
  platform: string,
): MentionSupport | undefined {
  return adapters.find((a) => a.platform === platform)?.mentions;
}

/** Why a route's addressing cannot work on its platform, or undefined. Shared with `webhook add`. */
export function seedProblem(
  seed: Pick<SubscriptionSeed, 'mentions' | 'sender' | 'onRemoval'>,
  platform: string,
  kind: Pick<WebhookKind, 'title' | 'edits' | 'takesSender' | 'mentions'> | undefined,
  support: MentionSupport | undefined,
): string | undefined {
  for (const target of seed.mentions ?? []) {
    const problem = mentionProblem(target, platform, support ?? kind?.mentions);
    if (problem !== undefined) return `mention: ${problem}`;
  }
  if (kind === undefined) return undefined;
  if (seed.onRemoval === 'delete' && !kind.edits) {
    return `a ${kind.title} cannot edit or delete what it posted, so on-removal=delete cannot apply: drop it (its messages stay as posted)`;
  }
  if (seed.sender !== undefined && !kind.takesSender) {
    return `a ${kind.title} posts under the name and icon set where it was created; drop webhook-name and webhook-avatar`;
  }
  return undefined;
}
