import type { DirectoryComment } from '../directory/index.js';
import type { Message } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, type ComposeOptions, footerFor } from './build-message.js';
import { KIND_COLORS } from './colors.js';
import { FieldList } from './fields.js';
import { authorOf, displayName } from './people.js';
import { excerpt, quoted, singleLine, summaryLine } from './plain-text.js';

/** How much of the body the one-line summary quotes. */
const FALLBACK_BODY_CHARS = 100;

/**
 * A comment: the body kept whole as text (renderers cut it to their platform's limits), the
 * commenter as author ("someone" when redacted or missing), votes and replies as fields.
 * Announced as new in a feed, described plainly in a lookup.
 */
export function composeCommentMessage(comment: DirectoryComment, options: ComposeOptions = {}): Message {
  const postName = comment.post === undefined ? undefined : singleLine(comment.post.name) || undefined;
  const isReply = comment.parentCommentId !== undefined;
  const news = options.occasion !== 'lookup';
  const what = isReply ? 'reply' : 'comment';
  const lead = news ? `New ${what}` : isReply ? 'Reply' : 'Comment';
  const title = postName === undefined ? lead : `${lead} on ${postName}`;
  const fields = new FieldList()
    .count('Votes', comment.votes)
    .count('Replies', comment.childCommentsCount)
    .text('Pinned', comment.sticky === true ? 'yes' : undefined);
  const by = displayName(comment.user);
  const on = postName === undefined ? '' : ` on ${quoted(postName)}`;
  const body = excerpt(comment.body, FALLBACK_BODY_CHARS);
  return buildMessage({
    kind: 'comment',
    title,
    // A comment without its own link still leads somewhere useful: the post's discussion.
    url: sanitizeUrl(comment.url) ?? sanitizeUrl(comment.post?.url),
    text: comment.body,
    fields: fields.build(),
    thumbnailUrl: sanitizeUrl(comment.post?.thumbnailUrl),
    author: authorOf(comment.user),
    timestamp: comment.createdAt,
    color: KIND_COLORS.comment,
    footer: footerFor(news ? `new ${what}` : what),
    fallback: summaryLine(`${lead} by ${by}${on}${body === '' ? '' : `: ${body}`}`),
  });
}
