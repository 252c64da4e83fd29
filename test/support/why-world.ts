import Keyv from 'keyv';
import type { ExplainDeps, FeedPolling } from '../../src/accounting/index.js';
import { explainItem } from '../../src/accounting/index.js';
import { directoryLinks } from '../../src/commands/directory-links.js';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { DeliveryLog, type DeliveryRecord } from '../../src/delivery/delivery-log.js';
import { Outbox, type OutboxEntry } from '../../src/delivery/outbox.js';
import type {
  DirectoryCollection,
  DirectoryComment,
  DirectoryLiveEvent,
  DirectoryPost,
  IdOrSlug,
} from '../../src/directory/index.js';
import { EMULATOR_WEB_URL } from '../../src/emulator/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import { HeldItems, type HeldState } from '../../src/held-items/held-item-store.js';
import type { Destination, MessageReference } from '../../src/ports/index.js';
import { directoryKeys } from '../../src/store/directory-keys.js';
import type { Subscription } from '../../src/subscriptions/subscription.js';

export const SITE = 'https://www.example-directory.test';
export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;
/** How long the world's ledger and log remember a delivery (DEDUPE_TTL_DAYS 30). */
export const REMEMBER_MS = 30 * DAY;

/** A post as the directory returns it. */
export function post(id: string, name: string, over: Partial<DirectoryPost> = {}): DirectoryPost {
  return {
    id,
    name,
    slug: name.toLowerCase().replaceAll(' ', '-'),
    url: `${SITE}/posts/${name.toLowerCase().replaceAll(' ', '-')}`,
    tagline: '',
    votesCount: 10,
    makers: [],
    topics: [],
    ...over,
  };
}

/** A subscription of channel C0123 (Slack), made at `createdAt`. */
export function subscription(
  id: string,
  feed: FeedName,
  createdAt: number,
  over: Partial<Subscription> = {},
): Subscription {
  return {
    id,
    platform: 'slack',
    channelId: 'C0123',
    feed,
    filters: {},
    createdBy: 'U1',
    createdAt,
    ...over,
  };
}

/** What one channel's bot keeps, in memory, and the small directory behind it; every lookup is counted. */
export function whyWorld(now: number) {
  const keyv = new Keyv();
  const clock = { now: () => now };
  const subscriptions: Subscription[] = [];
  const ledger = new DeliveredLedger({ keyv, ttlMs: REMEMBER_MS, directoryId: 'd' });
  const log = new DeliveryLog({ keyv, directoryId: 'd', ttlMs: REMEMBER_MS, clock });
  const outbox = new Outbox({ keyv, directoryId: 'd' });
  const held = new HeldItems({ keyv, directoryId: 'd' });
  const polling: FeedPolling[] = [];
  const directory = {
    posts: [] as DirectoryPost[],
    comments: [] as DirectoryComment[],
    collections: [] as DirectoryCollection[],
    live: [] as DirectoryLiveEvent[],
  };
  const lookups: string[] = [];
  /** By id, or by slug: the record's own, or the last segment of its link (collections have no slug field). */
  const byRef = <T extends { id: string; slug?: string; url?: string }>(list: T[], ref: IdOrSlug) =>
    list.find((r) => ('id' in ref ? r.id === ref.id : (r.slug ?? r.url?.split('/').at(-1)) === ref.slug)) ??
    null;
  let allowanceWaitMs = 0;
  const deps: ExplainDeps = {
    clock,
    links: directoryLinks(undefined, EMULATOR_WEB_URL),
    client: {
      getPost: async (ref) => {
        lookups.push(`post ${JSON.stringify(ref)}`);
        return byRef(directory.posts, ref);
      },
      getComment: async (id) => {
        lookups.push(`comment ${id}`);
        return directory.comments.find((c) => c.id === id) ?? null;
      },
      getCollection: async (ref) => {
        lookups.push(`collection ${JSON.stringify(ref)}`);
        return byRef(directory.collections, ref);
      },
      listLiveEvents: async (params) => {
        lookups.push(`live ${params?.slug}`);
        const items = directory.live.filter((e) => e.url?.endsWith(`/${params?.slug}`));
        return { items, notModified: false, skipped: 0 } as never;
      },
    },
    allowance: () => allowanceWaitMs,
    subscriptions: {
      forChannel: async (platform, channelId) =>
        subscriptions.filter((s) => s.platform === platform && s.channelId === channelId),
    },
    ledger,
    log,
    outbox,
    held,
    feedState: (feed) => keyv.get(directoryKeys('d').feedState(feed)),
    feedPolling: async () => polling,
    zoneOf: async (s) => s.schedule?.timeZone ?? 'UTC',
    rememberMs: REMEMBER_MS,
    messageLink: (destination: Destination, reference: MessageReference) =>
      `https://acme.slack.com/archives/${destination.channelId}/p${reference.messageId.replace('.', '')}`,
  };
  const destination = { platform: 'slack', channelId: 'C0123' };
  return {
    deps,
    subscriptions,
    directory,
    lookups,
    polling,
    ledger,
    log,
    outbox,
    held,
    /** Sets how long the asker must wait before their next lookup (0: go ahead). */
    limitLookups(waitMs: number) {
      allowanceWaitMs = waitMs;
    },
    /** Posted in C0123 `at`, as the dispatcher records it: the ledger entry and the log's record. */
    async posted(itemKey: string, at: number, forSubscriptions: string[], title = itemKey) {
      const messageId = '1763895900.000100';
      await ledger.markDelivered('slack:C0123', itemKey, { messageId, postedAt: at });
      const link = deps.messageLink?.(destination, { messageId });
      await this.logged({
        at,
        itemKey,
        outcome: 'delivered',
        messageId,
        link,
        title,
        subscriptionIds: forSubscriptions,
      });
    },
    async logged(record: Omit<DeliveryRecord, 'destinationKey' | 'link'> & { link?: string | undefined }) {
      const { link, ...rest } = record;
      await log.record({ destinationKey: 'slack:C0123', ...rest, ...(link === undefined ? {} : { link }) });
    },
    async queued(itemKey: string, forSubscriptions: string[], over: Partial<OutboxEntry> = {}) {
      await outbox.enqueue([
        {
          destination,
          destinationKey: 'slack:C0123',
          itemKey,
          message: { kind: 'post', title: itemKey, fallback: itemKey },
          subscriptionIds: forSubscriptions,
          enqueuedAt: now,
          attempts: 0,
          notBefore: now,
          ...over,
        },
      ]);
    },
    async hold(subscriptionId: string, state: HeldState) {
      await held.update(subscriptionId, () => ({ next: state, result: undefined }));
    },
    async feedState(feed: FeedName, state: unknown) {
      await keyv.set(directoryKeys('d').feedState(feed), state);
    },
    explain(item: string) {
      return explainItem({ platform: 'slack', channelId: 'C0123', item }, deps);
    },
  };
}
