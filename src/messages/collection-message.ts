import type { DirectoryCollection } from '../directory/index.js';
import type { Message } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, footerFor } from './build-message.js';
import { KIND_COLORS, resolveColor } from './colors.js';
import { FieldList } from './fields.js';
import { authorOf, displayName } from './people.js';
import { excerpt, singleLine, summaryLine } from './plain-text.js';

/**
 * A featured (or updated) collection: its own colour when it has a usable one, the curator
 * as author, posts and subscribers as fields, the background image as the large image.
 */
export function composeCollectionMessage(collection: DirectoryCollection): Message {
  const name = singleLine(collection.name) || `Collection ${collection.id}`;
  const title = collection.title === undefined ? undefined : singleLine(collection.title) || undefined;
  const featured = collection.featuredAt !== undefined;
  const fields = new FieldList()
    .count('Posts', collection.postsCount)
    .count('Subscribers', collection.subscriberCount);
  const lead = featured ? 'Featured collection' : 'Collection';
  const by = collection.user === undefined ? '' : ` by ${displayName(collection.user)}`;
  const about = title === undefined ? '' : ` — ${title}`;
  return buildMessage({
    kind: 'collection',
    title: name,
    url: sanitizeUrl(collection.url),
    text: title,
    fields: fields.build(),
    imageUrl: sanitizeUrl(collection.backgroundImageUrl),
    author: collection.user === undefined ? undefined : authorOf(collection.user),
    timestamp: collection.featuredAt ?? collection.updatedAt ?? collection.createdAt,
    color: resolveColor(collection.color) ?? KIND_COLORS.collection,
    footer: footerFor(featured ? 'featured collection' : 'collection'),
    fallback: summaryLine(`${lead}: ${excerpt(name, 100)}${by}${about}`),
  });
}
