import type Keyv from 'keyv';
import type { DeliveredLedger, Outbox } from '../delivery/index.js';
import { type EditDecision, type EditLimits, requestEdit } from '../delivery/index.js';
import type { FeedItem, FeedRecord } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { makeFeedItem } from '../feeds/make-item.js';
import { formatMessage, liveStatus, markRemoved } from '../messages/index.js';
import type { Message } from '../ports/index.js';
import type { SubscriptionIndex } from '../subscriptions/index.js';
import { addressMessage, subscriptionDestination } from '../subscriptions/index.js';
import {
  accumulate,
  inIdSpan,
  type Listing,
  type Remembered,
  memoryKey as shownMemoryKey,
} from './removal-memory.js';

/** At most this many items of one feed are remembered for spotting removals. */
const MEMORY_LIMIT = 100;

/**
 * The values a channel sees of an item that can change upstream, as one string: an edit is
 * owed exactly when it differs from what the posted message showed. A comment's or
 * notification's message shows nothing that changes (only its removal matters).
 */
export function shownState(record: FeedRecord, now: number): string {
  switch (record.type) {
    case 'post': {
      const { votesCount, commentsCount, featuredAt } = record.post;
      // The rank only when there is one, so messages posted before ranks existed owe no edit.
      const rank = record.rankToday === undefined ? '' : ` rank=${record.rankToday}`;
      return `votes=${votesCount ?? '-'} comments=${commentsCount ?? '-'} featured=${featuredAt ? 1 : 0}${rank}`;
    }
    case 'live':
      return `status=${liveStatus(record.event, now) ?? '-'}`;
    case 'collection':
      return `posts=${record.collection.postsCount ?? '-'}`;
    default:
      return '';
  }
}

/** Where an item sits in its feed's listing: what a removal is judged against. */
function positionOf(record: FeedRecord): number {
  switch (record.type) {
    case 'post':
      return Date.parse(record.post.createdAt ?? '');
    case 'comment':
      return Date.parse(record.comment.createdAt ?? '');
    case 'live':
      return Date.parse(record.event.startsAt ?? '');
    default:
      // Collections are listed by last update, so one can fall off the page without being
      // removed: no position, no removal (their product counts are still kept current).
      return Number.NaN;
  }
}

export interface RefreshDeps {
  store: Keyv;
  directoryId: string;
  index: SubscriptionIndex;
  outbox: Outbox;
  ledger: DeliveredLedger;
  compose: (item: FeedItem) => Message;
  now: number;
  limits: EditLimits;
  defaultRemindMinutes: number;
  /** Platforms whose deliveries carry the item's record (see FeedRunnerOptions). */
  recordPlatforms?: ReadonlySet<string>;
}

export interface RefreshSummary {
  /** Edits newly queued or folded into a pending one. */
  edits: number;
  /** Items found removed upstream since the last poll. */
  removed: number;
  /** Their upstream ids: nothing else may edit their messages back. */
  removedIds: string[];
}

/**
 * Keeps posted messages current from what a feed's own poll just listed (`observed`), at no
 * extra directory cost: for each item a destination holds a message for, an edit is requested
 * when a shown value changed (see requestEdit for the limits). An item listed last time, inside
 * the span this listing covers, and missing now was removed upstream (a live event: cancelled):
 * its message is edited to say so, or deleted where the subscription says `--on-removal delete`. `throughNewest`: the listing holds the feed's
 * newest records, so the span it covers runs on past the newest one it shows; or a `Listing`
 * (a span of ids, items found besides: see removal-memory).
 */
export async function refreshShown(
  feed: FeedName,
  observed: readonly FeedItem[],
  deps: RefreshDeps,
  coverage: boolean | Listing = false,
): Promise<RefreshSummary> {
  const listing: Listing = typeof coverage === 'boolean' ? { throughNewest: coverage } : coverage;
  const throughNewest = listing.throughNewest === true;
  const memoryKey = shownMemoryKey(deps.directoryId, feed);
  const previous = (await deps.store.get<Remembered[]>(memoryKey)) ?? [];
  const listed = new Set(observed.map((item) => item.key));
  const positions = observed.map((item) => positionOf(item.record)).filter(Number.isFinite);
  const [oldest, newest] = [Math.min(...positions), Math.max(...positions)];
  // Newest-first pages are cut by id, not time: one sharing the oldest listed time may sit just
  // past the page, so only strictly newer ones are judged (conservative: never a false removal).
  // Posts launched together share their second (V2 times have no finer one): a page of ten of
  // them must not make the rest look removed.
  const inSpan = throughNewest
    ? (position: number) => position > oldest
    : (position: number) => position > oldest && position <= newest;
  const covers = (r: Remembered) => listed.has(r.key) || (inIdSpan(r, listing) ?? inSpan(r.position));
  const gone = listing.partial ? [] : previous.filter((r) => !listed.has(r.key) && covers(r));
  const removed = gone.map((r) => makeFeedItem(feed, 'new', r.record, deps.now));

  let edits = 0;
  const count = (decision: EditDecision) => {
    if (decision === 'queued' || decision === 'coalesced') edits += 1;
  };
  for (const item of observed) {
    for (const decision of await editEverywhere(item, shownState(item.record, deps.now), (m) => m, deps)) {
      count(decision);
    }
  }
  for (const item of removed) {
    const removal = item.record.type === 'live' ? 'cancelled' : 'removed';
    const mark = (m: Message) => markRemoved(m, removal);
    // A live event missing from the pages read may only have moved past them (a busy listing
    // stops after a few pages): it is marked cancelled, never deleted, so a mistake can heal.
    for (const decision of await editEverywhere(item, removal, mark, deps, removal === 'removed')) {
      count(decision);
    }
  }

  const keepMs = deps.limits.maxAgeMs + 86_400_000;
  const remembered: Remembered[] =
    listing.found === undefined
      ? observed
          .map((item) => ({ key: item.key, position: positionOf(item.record), record: item.record }))
          .filter((r) => Number.isFinite(r.position) && deps.now - r.position <= keepMs)
          .slice(-MEMORY_LIMIT)
      : accumulate(
          previous,
          { ...listing, observed },
          { removed: new Set(gone.map((r) => r.key)), covers },
          { now: deps.now, keepMs, position: positionOf, delivered: (item) => routes(item, deps).length > 0 },
        );
  await deps.store.set(memoryKey, remembered);
  return { edits, removed: removed.length, removedIds: removed.map((item) => item.id) };
}

/** Requests the edit in every destination the item routes to (only those holding it edit). */
export async function editEverywhere(
  item: FeedItem,
  shown: string,
  mark: (message: Message) => Message,
  deps: RefreshDeps,
  removed = false,
): Promise<EditDecision[]> {
  const targets = routes(item, deps);
  if (targets.length === 0) return [];
  const full = mark(deps.compose(item));
  const decisions: EditDecision[] = [];
  for (const subscription of targets) {
    decisions.push(
      await requestEdit(
        {
          ...subscriptionDestination(subscription),
          itemKey: item.key,
          subscriptionIds: [subscription.id],
          // The mentions stay in the edited text; platforms never ping again for an edit.
          message: addressMessage(formatMessage(full, subscription.format), subscription, item),
          shown,
          ...(deps.recordPlatforms?.has(subscription.platform) ? { record: item.record } : {}),
          // `--on-removal delete`: the message goes (marked instead if the platform refuses).
          ...(removed && subscription.onRemoval === 'delete' ? { delete: true as const } : {}),
        },
        { outbox: deps.outbox, ledger: deps.ledger, limits: deps.limits, now: deps.now },
      ),
    );
  }
  return decisions;
}

function routes(item: FeedItem, deps: RefreshDeps) {
  return deps.index.route(item, { now: deps.now, defaultRemindMinutes: deps.defaultRemindMinutes });
}
