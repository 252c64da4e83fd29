import { type IdOrSlug, idOrSlugOf, linkedRecord, linkIn, unwrapChatLink } from '../directory/index.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { ExplainDeps } from './item-explanation.js';

/**
 * The item someone asked about: its feed and its id, or a slug that only a lookup turns into an
 * id. A bare number names no feed: the channel's subscriptions decide which it is.
 */
export type ItemReference = { feed: FeedName; ref: IdOrSlug } | { feed?: undefined; ref: { id: string } };

/** What the text named: an item, or why it names none (said to the person as is). */
export type ParsedItem = { reference: ItemReference } | { notice: string };

/** What each feed's items are called, one at a time (`comment 812`). */
export const ITEM_NOUNS: Readonly<Record<FeedName, string>> = {
  posts: 'post',
  comments: 'comment',
  collections: 'collection',
  live: 'live event',
  notifications: 'notification',
};

/** The words naming a kind of item, singular and plural, and the feed that posts it. */
const KINDS: Readonly<Record<string, FeedName>> = {
  post: 'posts',
  posts: 'posts',
  comment: 'comments',
  comments: 'comments',
  collection: 'collections',
  collections: 'collections',
  live: 'live',
  event: 'live',
  notification: 'notifications',
  notifications: 'notifications',
};

/** Feeds whose items people name by slug as well as id (the others only by id). */
const SLUGGED: ReadonlySet<FeedName> = new Set(['posts', 'collections', 'live']);

const SHAPES =
  'Give a link to it from the directory, or its kind and id: comment 812, post 42, post launch-day, collection ai-tools, live 7.';

/**
 * Reads what was typed: a link to the directory's page of a post, comment
 * (`…/posts/<slug>?comment=<id>`), collection, live event or notification; a kind and an id or
 * slug (`comment 812`, `post:launch-day`); an item key (`comments:new:812`); or a bare id.
 */
export function parseItem(text: string, links: ExplainDeps['directoryLinks']): ParsedItem {
  const raw = unwrapChatLink(text);
  const url = linkIn(raw);
  if (url !== undefined) return fromLink(url, links);
  if (/^https?:/i.test(raw)) return { notice: `That is not a link the bot can read. ${SHAPES}` };
  const words = raw.split(/[\s:]+/).filter((word) => word !== '');
  // `comments:new:812` is the item key the bot itself uses.
  if (words.length === 3 && words[1] === 'new') words.splice(1, 1);
  if (words.length === 1 && /^\d{1,20}$/.test(words[0]!)) return { reference: { ref: { id: words[0]! } } };
  const feed = words.length === 2 ? KINDS[words[0]!.toLowerCase()] : undefined;
  if (feed === undefined) return { notice: `"${clip(raw)}" names no item. ${SHAPES}` };
  const ref = idOrSlugOf(words[1]);
  if (ref === undefined || ('slug' in ref && !SLUGGED.has(feed)))
    return {
      notice: `"${clip(words[1] ?? '')}" is not a ${ITEM_NOUNS[feed]} id${SLUGGED.has(feed) ? ' or slug' : ''}.`,
    };
  return { reference: { feed, ref } };
}

function fromLink(url: URL, links: ExplainDeps['directoryLinks']): ParsedItem {
  if (!links.accepts(url.hostname)) {
    return {
      notice: `${url.hostname} is not the directory, so that link names nothing the bot posts. Paste a link from ${links.primaryHost}, or give the item's kind and id.`,
    };
  }
  const record = linkedRecord(url);
  switch (record?.kind) {
    case undefined:
      return { notice: `That page of the directory is not one item. ${SHAPES}` };
    case 'user':
      return {
        notice: `That is @${record.username}'s profile: a person is not an item a feed posts. ${SHAPES}`,
      };
    case 'post':
      return { reference: { feed: 'posts', ref: record.ref } };
    case 'comment':
      return { reference: { feed: 'comments', ref: { id: record.id } } };
    case 'collection':
      return { reference: { feed: 'collections', ref: { slug: record.slug } } };
    case 'live':
      return { reference: { feed: 'live', ref: { slug: record.slug } } };
    case 'notification':
      return { reference: { feed: 'notifications', ref: { id: record.id } } };
  }
}

/** At most 60 characters of what was typed, for quoting it back. */
function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
