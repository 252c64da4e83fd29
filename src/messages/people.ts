import type { DirectoryUser } from '../directory/index.js';
import type { MessageAuthor } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { singleLine } from './plain-text.js';

/** How a redacted or missing person is shown: never a name, never a link. */
export const SOMEONE = 'someone';

/**
 * Whether a user may be shown by name. The schemas already mark redacted users; this also
 * refuses a stray `[REDACTED]` or a blank name, so a record that slipped past them still
 * reads "someone".
 */
export function isShowable(user: DirectoryUser | undefined): user is DirectoryUser {
  if (user === undefined || user.redacted) return false;
  const name = singleLine(user.name);
  return name !== '' && name !== '[REDACTED]' && user.username !== '[REDACTED]';
}

/** The name to show for a user: their name, or "someone" when redacted or missing. */
export function displayName(user: DirectoryUser | undefined): string {
  return isShowable(user) ? singleLine(user.name) : SOMEONE;
}

/**
 * The message author for a user. A redacted or missing user is "someone" with no link and
 * no avatar, so `[REDACTED]` or a stale id never turns into a profile link.
 */
export function authorOf(user: DirectoryUser | undefined): MessageAuthor {
  if (!isShowable(user)) return { name: SOMEONE };
  const author: MessageAuthor = { name: singleLine(user.name) };
  const url = sanitizeUrl(user.profileUrl);
  const iconUrl = sanitizeUrl(user.avatarUrl);
  if (url !== undefined) author.url = url;
  if (iconUrl !== undefined) author.iconUrl = iconUrl;
  return author;
}

/**
 * A list of people as one line: showable names first (deduplicated), then redacted ones
 * summed up, e.g. "Ada Lovelace, Grace Hopper and 2 others". Undefined for an empty list.
 */
export function listPeople(users: readonly DirectoryUser[], maxNames = 5): string | undefined {
  const names = [...new Set(users.filter(isShowable).map((user) => singleLine(user.name)))];
  const shown = names.slice(0, maxNames);
  const others = users.length - users.filter(isShowable).length + (names.length - shown.length);
  if (shown.length === 0) return others === 0 ? undefined : others === 1 ? SOMEONE : `${others} people`;
  if (others === 0) return shown.join(', ');
  return `${shown.join(', ')} and ${others} ${others === 1 ? 'other' : 'others'}`;
}
