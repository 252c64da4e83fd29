import {
  type IdOrSlug,
  linkTarget,
  parsePostRef,
  postLink,
  SLUG_PATTERN,
  unwrapChatLink,
} from '../directory/index.js';
import { FEED_NAMES, type FeedName } from '../feeds/feed-names.js';

/** Which links are the directory's (the commands' `DirectoryLinks`). */
export interface DirectoryHosts {
  /** The host to suggest when a link is refused. */
  readonly primaryHost: string;
  accepts(hostname: string): boolean;
}

/** The item `/directory why` is asked about: its feed, and its id, or a slug to look the id up by. */
export type ItemRef = { feed: FeedName } & ({ id: string } | { slug: string });

/** The forms `why` accepts, for help and for the reply to one it cannot read. */
export const ITEM_FORMS =
  'a directory link (a post, a comment, a collection, a live event or a notification), ' +
  'a post id or slug, or a feed and id such as comment:812, collection:my-picks, live:ama-week or posts:new:42';

/** `post 42`, `comment:812`: a feed named the way people say it. */
const FEED_WORDS: Readonly<Record<string, FeedName>> = {
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

const NUMERIC_ID = /^\d{1,20}$/;

/**
 * Reads what someone pasted or typed into the item it names, without asking the directory:
 * every page of the directory's site that names one item (a post; a comment, as
 * `/posts/<post>?comment=<id>`; a featured collection; a live event; a notification), an item
 * key (`posts:new:42`), a feed and id or slug (`comment:812`), or a post id or slug. Anything
 * else is a `notice` saying why.
 */
export function parseItemRef(raw: string, hosts: DirectoryHosts): { ref: ItemRef } | { notice: string } {
  const text = unwrapChatLink(raw);
  if (text === '') return { notice: `Name the item: ${ITEM_FORMS}.` };
  const url = postLink(raw);
  if (url !== undefined) return fromLink(url, hosts);
  if (/^https?:/i.test(text)) return { notice: 'That link cannot be read: check it was pasted whole.' };
  const key = /^([a-z]+):(new|reminder):(.+)$/i.exec(text);
  if (key && (FEED_NAMES as readonly string[]).includes(key[1]!.toLowerCase()))
    return idOrSlug(key[1]!.toLowerCase() as FeedName, key[3]!);
  const named = /^([a-z]+)[:\s]\s*(\S+)$/i.exec(text);
  const feed = named ? FEED_WORDS[named[1]!.toLowerCase()] : undefined;
  if (named && feed) return idOrSlug(feed, named[2]!);
  const post = parsePostRef(text);
  if (post) return { ref: { feed: 'posts', ...post } };
  return { notice: `That names no item. Give ${ITEM_FORMS}.` };
}

function fromLink(url: URL, hosts: DirectoryHosts): { ref: ItemRef } | { notice: string } {
  if (!hosts.accepts(url.hostname))
    return {
      notice: `${url.hostname} is not the directory, so that link names none of its items. Paste a link from ${hosts.primaryHost}.`,
    };
  const notification = /^\/notifications\/(\d{1,20})\/?$/.exec(url.pathname);
  if (notification) return { ref: { feed: 'notifications', id: notification[1]! } };
  const target = linkTarget(url);
  switch (target?.kind) {
    case 'post': {
      const comment = url.searchParams.get('comment');
      if (comment !== null && NUMERIC_ID.test(comment)) return { ref: { feed: 'comments', id: comment } };
      return { ref: { feed: 'posts', ...target.ref } };
    }
    case 'collection':
      return { ref: { feed: 'collections', slug: target.slug } };
    case 'live':
      return { ref: { feed: 'live', slug: target.slug } };
    case 'user':
      return { notice: `That is ${target.username}'s page, a person, not an item: give ${ITEM_FORMS}.` };
    default:
      return { notice: `That page of the directory names no item: give ${ITEM_FORMS}.` };
  }
}

/** An id where the feed's ids are numbers, else a slug (posts, collections and live events have both). */
function idOrSlug(feed: FeedName, value: string): { ref: ItemRef } | { notice: string } {
  if (NUMERIC_ID.test(value)) return { ref: { feed, id: value } };
  const sluggable = feed === 'posts' || feed === 'collections' || feed === 'live';
  if (sluggable && SLUG_PATTERN.test(value) && value.length <= 100)
    return { ref: { feed, slug: value.toLowerCase() } };
  return {
    notice: sluggable
      ? `"${value}" is not an id or a slug (letters, digits and dashes).`
      : `A ${feed === 'comments' ? 'comment' : 'notification'} is named by its number, not "${value}".`,
  };
}

/** The reference as the directory's lookups take it. */
export function idOrSlugOf(ref: ItemRef): IdOrSlug {
  return 'id' in ref ? { id: ref.id } : { slug: ref.slug };
}
