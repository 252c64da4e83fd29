import { pageById } from './v1-listing.js';
import type { V1Request, V1Result } from './v1-route.js';
import { serializeCollection } from './v1-serializers.js';

/**
 * GET /v1/collections (spec 4.3). `search[featured]=false` (the default) means "no featured
 * filter", not "only unfeatured": the spec defines the flag as "only collections that have
 * been featured".
 */
export function listCollections({ params, store, ctx }: V1Request): V1Result {
  const featured = params.bool('search[featured]') ?? false;
  const slug = params.string('search[slug]');
  const username = params.string('search[user_username]');
  const subscriberId = params.id('search[subscriber_id]');
  const matching = [...store.collections.values()].filter(
    (c) =>
      (!featured || c.featuredAt !== null) &&
      (slug === undefined || c.slug === slug) &&
      (username === undefined || store.users.get(c.userId)?.username === username) &&
      (subscriberId === undefined || c.subscriberIds.includes(subscriberId)),
  );
  const collections = pageById(matching, params).map((c) => serializeCollection(c, store, ctx));
  return { body: { collections }, etag: 'strong' };
}
