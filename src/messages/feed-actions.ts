import { type CommandAction, commandAction, type MessageAction } from '../ports/index.js';

/** An "Open" link button, when there is a link to open. */
function openAction(url: string | undefined): MessageAction[] {
  return url === undefined ? [] : [{ kind: 'link', label: 'Open', url }];
}

const present = (action: CommandAction | undefined): action is CommandAction => action !== undefined;

/**
 * The buttons under a post in a feed: its latest comments (answered only to the clicker), a
 * `comments --post` subscription for the channel (as the command would, permission included),
 * and the link. By post id, not slug: comments name their post by id, so the filter matches
 * every comment however the directory described it.
 */
export function postActions(postId: string, url: string | undefined): MessageAction[] {
  return [
    ...[
      commandAction('comments', postId, 'Comments'),
      commandAction('follow', postId, 'Follow comments'),
    ].filter(present),
    ...openAction(url),
  ];
}

/**
 * The buttons under a live event in a feed: "Remind me" (`remind <event id>`: a DM to the
 * clicker before the start) on the announcement, and the link. The "starting soon" reminder
 * gets only the link: it comes when a reminder would.
 */
export function liveEventActions(
  eventId: string,
  url: string | undefined,
  reminder: boolean,
): MessageAction[] {
  const remind = reminder ? undefined : commandAction('remind', eventId, 'Remind me');
  return [...(remind === undefined ? [] : [remind]), ...openAction(url)];
}
