import { randomBytes } from 'node:crypto';
import type { MessageFormat } from '../ports/index.js';
import type { ScheduleOptions } from '../schedule/index.js';
import { sameSchedule } from '../schedule/index.js';
import type { BackfillRequest } from './backfill.js';
import type { FeedFilters } from './filters.js';
import type { OnRemoval, Subscription } from './subscription.js';
import { storedThreading, type ThreadSettings } from './thread-options.js';

/**
 * What makes a subscription itself: its id, and the route (where, which feed, which filters) that
 * no two subscriptions share. The format is not part of the route: it is how, not what.
 */

/** `full` is the default and never stored, so a stored subscription either names another format or none. */
function storedFormat(format: MessageFormat | undefined): Exclude<MessageFormat, 'full'> | undefined {
  return format === 'full' ? undefined : format;
}

/** The subscription with `format` (stored form), the same object when nothing changes. */
export function withFormat(subscription: Subscription, format: MessageFormat | undefined): Subscription {
  const wanted = storedFormat(format);
  if (subscription.format === wanted) return subscription;
  const { format: _format, ...rest } = subscription;
  return wanted === undefined ? rest : { ...rest, format: wanted };
}

/** The subscription with these thread settings (stored form), the same object when nothing changes. */
export function withThreading(
  subscription: Subscription,
  threading: ThreadSettings | undefined,
): Subscription {
  const wanted = storedThreading(threading);
  if (JSON.stringify(subscription.threading) === JSON.stringify(wanted)) return subscription;
  const { threading: _threading, ...rest } = subscription;
  return wanted === undefined ? rest : { ...rest, threading: wanted };
}

/** The subscription with this `--on-removal` (only `delete` is stored), the same object when nothing changes. */
export function withOnRemoval(subscription: Subscription, onRemoval: OnRemoval | undefined): Subscription {
  const wanted = onRemoval === 'delete' ? onRemoval : undefined;
  if (subscription.onRemoval === wanted) return subscription;
  const { onRemoval: _onRemoval, ...rest } = subscription;
  return wanted === undefined ? rest : { ...rest, onRemoval: wanted };
}

/**
 * The subscription with this schedule (when, never which items): what a subscribe again, or a
 * changed SUBSCRIPTIONS entry, changes in place. The same object when nothing changes.
 */
export function withSchedule(
  subscription: Subscription,
  schedule: ScheduleOptions | undefined,
): Subscription {
  if (sameSchedule(subscription.schedule, schedule)) return subscription;
  const { schedule: _schedule, ...rest } = subscription;
  return schedule === undefined ? rest : { ...rest, schedule };
}

/**
 * The subscription with a backfill asked for (`--backfill N`), replacing one still pending; the same
 * object when none is asked (a subscribe without it leaves a pending one to finish).
 */
export function withBackfill(
  subscription: Subscription,
  backfill: BackfillRequest | undefined,
): Subscription {
  return backfill === undefined || backfill.count <= 0 ? subscription : { ...subscription, backfill };
}

/** Identity of a route: where, which feed, which filters (not the format: see `SubscriptionRepository.add`). */
export function signature(route: Pick<Subscription, 'platform' | 'channelId' | 'feed' | 'filters'>): string {
  return JSON.stringify([route.platform, route.channelId, route.feed, sortKeys(route.filters)]);
}

export function sameFilters(a: FeedFilters, b: FeedFilters): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: FeedFilters): [string, unknown][] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([x], [y]) => x.localeCompare(y));
}

export const idsOf = (subscriptions: readonly Subscription[]) => new Set(subscriptions.map((s) => s.id));

export function newId(taken: ReadonlySet<string>): string {
  for (;;) {
    // 4 bytes: ids stay short to type; the set keeps them unique (seeding 100k routes stays linear).
    const id = `s${randomBytes(4).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
}

/** What `SubscriptionRepository.add` answers: the stored subscription and what, if anything, it changed. */
export interface AddResult {
  subscription: Subscription;
  created: boolean;
  /** It existed paused and is active again. */
  resumed: boolean;
  /** It existed with another format or thread settings and now has the ones asked for. */
  reformatted: boolean;
  /** It existed with another `--on-removal` and now has the one asked for. */
  removalChanged: boolean;
  /** It existed with another schedule (or none) and now has the one asked for. */
  rescheduled: boolean;
  /** It existed with other mentions or another poster name or avatar and now has the ones asked for. */
  readdressed: boolean;
}
