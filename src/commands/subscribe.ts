import {
  describeFilters,
  type FeedFilters,
  feedFiltersSchema,
  filtersNotApplicable,
} from '../delivery/feed-filters.js';
import type { Subscription, SubscriptionRepository } from '../delivery/subscriptions.js';
import type { DirectoryClient } from '../directory/index.js';
import { type FeedName, isFeedName } from '../feeds/feed-names.js';
import type { Clock } from '../ports/clock.js';
import type { CommandInvocation, CommandReply } from '../ports/commands.js';
import { splitList } from './arg-formats.js';
import type { ParsedArgs } from './command-spec.js';
import { errorReply, infoMessage, infoReply } from './replies.js';
import { previewSubscription } from './subscription-preview.js';
import { upstreamFailureReply } from './upstream-failure.js';

export interface SubscriptionCommandDeps {
  client: DirectoryClient;
  subscriptions: SubscriptionRepository;
  clock: Clock;
  adminUserIds: readonly string[];
  defaultRemindMinutes: number;
}

/** Who may change a channel's subscriptions, in the platform's own words. */
export function whoMayManage(platform: string): string {
  switch (platform) {
    case 'slack':
      return "Only workspace admins and owners, or people listed in ADMIN_USER_IDS, can change this channel's subscriptions.";
    case 'discord':
      return "Only members with the Manage Channels permission, or people listed in ADMIN_USER_IDS, can change this channel's subscriptions.";
    default:
      return "Only people allowed to manage this channel, or listed in ADMIN_USER_IDS, can change this channel's subscriptions.";
  }
}

/** Whether the actor may change channel state: the platform says so, or ADMIN_USER_IDS does. */
export function mayManage(invocation: CommandInvocation, adminUserIds: readonly string[]): boolean {
  return invocation.actor.canManageChannel || adminUserIds.includes(invocation.actor.userId);
}

const FLAG_NAMES: Readonly<Record<keyof FeedFilters, string>> = {
  post: '--post',
  user: '--user',
  keywords: '--keyword',
  exclude: '--exclude',
  video: '--video',
  minVotes: '--min-votes',
  remindMinutes: '--remind',
};

/** Builds and checks the filters from parsed flags; a problem is a sentence for the user. */
export function filtersFromArgs(
  feed: FeedName,
  args: ParsedArgs,
): { ok: true; filters: FeedFilters } | { ok: false; problem: string } {
  const raw: Record<string, unknown> = {};
  if (typeof args['post'] === 'string') raw['post'] = args['post'];
  if (typeof args['user'] === 'string') raw['user'] = args['user'];
  const keywords = args['keyword'];
  if (Array.isArray(keywords)) raw['keywords'] = splitList(keywords);
  const exclude = args['exclude'];
  if (Array.isArray(exclude)) raw['exclude'] = splitList(exclude);
  if (args['video'] === true) raw['video'] = true;
  if (typeof args['min-votes'] === 'number') raw['minVotes'] = args['min-votes'];
  if (typeof args['remind'] === 'number') raw['remindMinutes'] = args['remind'];
  const parsed = feedFiltersSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path[0] as keyof FeedFilters | undefined;
    const flag = key ? FLAG_NAMES[key] : 'a filter';
    return { ok: false, problem: `${flag}: ${issue?.message ?? 'is not valid'}.` };
  }
  const filters = Object.fromEntries(
    Object.entries(parsed.data).filter(
      ([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0),
    ),
  ) as FeedFilters;
  const misplaced = filtersNotApplicable(feed, filters);
  if (misplaced.length > 0) {
    const flags = misplaced.map((key) => FLAG_NAMES[key as keyof FeedFilters]).join(', ');
    return { ok: false, problem: `${flags} does not apply to the ${feed} feed.` };
  }
  return { ok: true, filters };
}

function describeSubscription(subscription: Subscription, defaultRemindMinutes: number): string {
  const filters = describeFilters(subscription.filters);
  const remind =
    subscription.feed === 'live' &&
    subscription.filters.remindMinutes === undefined &&
    defaultRemindMinutes > 0
      ? `reminder ${defaultRemindMinutes} min before (default)`
      : '';
  const details = [filters, remind].filter((part) => part !== '').join(', ');
  return `${subscription.feed}${details === '' ? ' (everything)' : ` — ${details}`}`;
}

/** `subscribe <feed> [filters]`: adds the subscription and previews the last matching item. */
export async function subscribe(
  invocation: CommandInvocation,
  args: ParsedArgs,
  deps: SubscriptionCommandDeps,
  usage: string,
): Promise<CommandReply> {
  const feed = String(args['feed'] ?? '');
  if (!isFeedName(feed)) return errorReply('command_usage', `Unknown feed "${feed}".`, usage);
  const checked = filtersFromArgs(feed, args);
  if (!checked.ok) return errorReply('command_usage', checked.problem, usage);
  const { subscription, created, resumed } = await deps.subscriptions.add({
    platform: invocation.platform,
    channelId: invocation.channelId,
    ...(invocation.workspaceId === undefined ? {} : { workspaceId: invocation.workspaceId }),
    feed,
    filters: checked.filters,
    createdBy: invocation.actor.userId,
  });
  const what = describeSubscription(subscription, deps.defaultRemindMinutes);
  const lead = created
    ? `Subscribed this channel to ${what}. Id: ${subscription.id} (to stop: unsubscribe ${subscription.id}).`
    : resumed
      ? `Resumed this channel's paused subscription: ${what}. Id: ${subscription.id}.`
      : `This channel already has that subscription: ${what}. Id: ${subscription.id}.`;
  let preview: string;
  const messages = [];
  try {
    const message = await previewSubscription(deps.client, feed, checked.filters, deps.clock.now());
    if (message) {
      messages.push(message);
      preview = 'The most recent matching item is below; new ones will appear in this channel.';
    } else {
      preview = 'Nothing recent matches these filters; new matching items will appear in this channel.';
    }
  } catch (error) {
    // The subscription is saved either way; only the preview is missing.
    const failure = upstreamFailureReply(error, { ledger: deps.client.ledger, now: deps.clock.now() });
    preview = `No preview: ${failure.reply.text}`;
  }
  return infoReply(`${lead}\n${preview}`, messages);
}

/** `unsubscribe <id|feed>`: removes this channel's subscription(s). */
export async function unsubscribe(
  invocation: CommandInvocation,
  args: ParsedArgs,
  deps: SubscriptionCommandDeps,
  usage: string,
): Promise<CommandReply> {
  const target = String(args['target'] ?? '');
  const removed = await deps.subscriptions.remove(invocation.platform, invocation.channelId, target);
  if (removed.length === 0) {
    return errorReply(
      'command_usage',
      `This channel has no subscription ${isFeedName(target) ? `to ${target}` : `with id ${target}`}. See "subscriptions" for the list.`,
      usage,
    );
  }
  const lines = removed.map((s) => `${s.id}: ${describeSubscription(s, deps.defaultRemindMinutes)}`);
  return infoReply(
    `Removed ${removed.length === 1 ? 'a subscription' : `${removed.length} subscriptions`} from this channel.`,
    [infoMessage('Removed', lines.join('\n'))],
  );
}

/** `subscriptions`: this channel's subscriptions, with ids and why any is paused. */
export async function listSubscriptions(
  invocation: CommandInvocation,
  deps: SubscriptionCommandDeps,
): Promise<CommandReply> {
  const mine = await deps.subscriptions.forChannel(invocation.platform, invocation.channelId);
  if (mine.length === 0) {
    return infoReply('This channel has no subscriptions. Try "subscribe posts" or "help subscribe".');
  }
  const lines = mine.map((s) => {
    const paused = s.paused ? ` — PAUSED: ${s.paused.reason}` : '';
    return `${s.id}: ${describeSubscription(s, deps.defaultRemindMinutes)}${paused}`;
  });
  return infoReply(
    `This channel has ${mine.length === 1 ? '1 subscription' : `${mine.length} subscriptions`}.`,
    [infoMessage('Subscriptions in this channel', lines.join('\n'))],
  );
}
