import type { DirectoryClient } from '../directory/index.js';
import { isBotError } from '../errors.js';
import type { FeedRecord } from '../feeds/feed-item.js';
import { type ItemRef, idOrSlugOf } from './item-ref.js';

/** A person is waiting: the lookup may spend the quota reserve the feeds leave alone. */
const INTERACTIVE = { priority: 'interactive' } as const;

/** What the one lookup found: the record, that there is none, or why it was not asked. */
export type LookupResult = { record: FeedRecord } | { missing: true } | { notAsked: string };

/** How `explainItem` may ask the directory: once, from the lookup reserve, within the person's allowance. */
export interface ItemLookupDeps {
  client: Pick<DirectoryClient, 'getPost' | 'getComment' | 'getCollection' | 'listLiveEvents'>;
  /**
   * Counts one upstream request against the asker's lookup allowance (the commands' per-person
   * limit) and answers how long they must wait first: 0 means go ahead. Absent: no limit.
   */
  allowance?: () => number;
}

/** The one lookup an explanation may make: asked when first wanted, then shared. */
export interface OneLookup {
  /** The answer, asking the directory the first time. */
  get(): Promise<LookupResult>;
  /** The answer if it was asked already (never asks). */
  asked(): Promise<LookupResult> | undefined;
}

/**
 * The directory's record of the item, asked at most once however often it is wanted: the
 * answer is shared. Feeds whose items the directory cannot look up one by one (notifications,
 * a live event by id) are `notAsked`.
 */
export function oneLookup(ref: ItemRef, deps: ItemLookupDeps): OneLookup {
  let answer: Promise<LookupResult> | undefined;
  return {
    get() {
      answer ??= ask(ref, deps);
      return answer;
    },
    asked: () => answer,
  };
}

async function ask(ref: ItemRef, deps: ItemLookupDeps): Promise<LookupResult> {
  const { client } = deps;
  const fetchers: Partial<Record<ItemRef['feed'], () => Promise<FeedRecord | null | undefined>>> = {
    posts: async () =>
      wrap(await client.getPost(idOrSlugOf(ref), INTERACTIVE), (post) => ({ type: 'post', post })),
    comments: async () =>
      'id' in ref
        ? wrap(await client.getComment(ref.id, INTERACTIVE), (comment) => ({ type: 'comment', comment }))
        : null,
    collections: async () =>
      wrap(await client.getCollection(idOrSlugOf(ref), INTERACTIVE), (collection) => ({
        type: 'collection',
        collection,
      })),
    ...('slug' in ref
      ? {
          live: async () =>
            wrap(
              (await client.listLiveEvents({ slug: ref.slug, perPage: 1 }, INTERACTIVE)).items[0] ?? null,
              (event) => ({
                type: 'live',
                event,
              }),
            ),
        }
      : {}),
  };
  const fetch = fetchers[ref.feed];
  if (fetch === undefined) return { notAsked: 'the directory cannot look this kind of item up by itself' };
  const waitMs = deps.allowance?.() ?? 0;
  if (waitMs > 0)
    return { notAsked: `you have asked for many lookups lately; try again in ${Math.ceil(waitMs / 1000)} s` };
  try {
    const record = await fetch();
    return record ? { record } : { missing: true };
  } catch (error) {
    if (isBotError(error, 'upstream_not_found')) return { missing: true };
    return { notAsked: whyUnanswered(error) };
  }
}

/** A failed lookup in words for the channel: never the request's URL, which names the API's address. */
function whyUnanswered(error: unknown): string {
  if (isBotError(error, 'quota_exhausted')) return "the directory's quota for lookups is spent for now";
  if (isBotError(error, 'upstream_rate_limited')) return 'the directory asked the bot to slow down';
  return 'the directory did not answer';
}

function wrap<T>(value: T | null, record: (value: T) => FeedRecord): FeedRecord | null {
  return value === null ? null : record(value);
}
