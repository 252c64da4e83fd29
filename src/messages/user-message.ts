import type { DirectoryUserProfile } from '../directory/index.js';
import type { Message } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, footerFor } from './build-message.js';
import { KIND_COLORS } from './colors.js';
import { FieldList, formatDay } from './fields.js';
import { isShowable, SOMEONE } from './people.js';
import { singleLine, summaryLine } from './plain-text.js';

/** How many made posts and followed collections a profile lists by name. */
const MAX_LISTED = 5;

function listNames(names: readonly string[]): string | undefined {
  const cleaned = names.map(singleLine).filter((name) => name !== '');
  if (cleaned.length === 0) return undefined;
  const shown = cleaned.slice(0, MAX_LISTED).join(', ');
  return cleaned.length > MAX_LISTED ? `${shown} and ${cleaned.length - MAX_LISTED} more` : shown;
}

/**
 * A user profile for `/directory user …`. A redacted profile shows as "someone" with no
 * link, avatar, headline or handle; what they made is still public and still listed.
 */
export function composeUserMessage(profile: DirectoryUserProfile): Message {
  const showable = isShowable(profile);
  const name = showable ? singleLine(profile.name) : SOMEONE;
  const username = showable ? singleLine(profile.username) : '';
  const title = username === '' || username === name ? name : `${name} (@${username})`;
  const twitter =
    showable && profile.twitterUsername ? singleLine(profile.twitterUsername).replace(/^@/, '') : '';
  const fields = new FieldList()
    .text('Maker', !showable || profile.isMaker === undefined ? undefined : profile.isMaker ? 'yes' : 'no')
    .text(
      'Member since',
      showable && profile.createdAt !== undefined ? formatDay(profile.createdAt) : undefined,
    )
    .text('Twitter', twitter === '' ? undefined : `@${twitter}`)
    .text('Website', showable ? sanitizeUrl(profile.websiteUrl) : undefined, false)
    .text('Made', listNames(profile.madePosts.map((post) => post.name)), false)
    .text('Follows', listNames(profile.followedCollections.map((collection) => collection.name)), false);
  const headline = showable && profile.headline !== undefined ? singleLine(profile.headline) : undefined;
  return buildMessage({
    kind: 'user',
    title,
    url: showable ? sanitizeUrl(profile.profileUrl) : undefined,
    text: headline,
    fields: fields.build(),
    thumbnailUrl: showable ? sanitizeUrl(profile.avatarUrl) : undefined,
    timestamp: undefined,
    color: KIND_COLORS.user,
    footer: footerFor('user'),
    fallback: summaryLine(headline ? `${title} — ${headline}` : title),
  });
}
