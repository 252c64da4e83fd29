import type { DirectoryPost } from '../directory/index.js';
import type { Message } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, type ComposeOptions, footerFor } from './build-message.js';
import { KIND_COLORS } from './colors.js';
import { postActions } from './feed-actions.js';
import { FieldList, formatDay } from './fields.js';
import { authorOf, listPeople } from './people.js';
import { excerpt, singleLine, summaryLine } from './plain-text.js';

const MAX_TOPICS = 5;

/** A post's own options: its place in the day's ranking when the bot knows it (feed messages only). */
export interface PostComposeOptions extends ComposeOptions {
  /** 1-based place among today's posts in the directory's ranking; only the top 20 are shown. */
  rankToday?: number;
}

/**
 * A new or featured post: name as title, tagline as text, votes, comments, rank of the day,
 * makers and topics as fields, the hunter as author. Plain text throughout; renderers escape. Announced
 * as new in a feed, described plainly in a lookup.
 */
export function composePostMessage(post: DirectoryPost, options: PostComposeOptions = {}): Message {
  const news = options.occasion !== 'lookup';
  const name = singleLine(post.name) || `Post ${post.id}`;
  const tagline = post.tagline === undefined ? undefined : singleLine(post.tagline);
  const topics = [...new Set(post.topics.map(singleLine).filter((topic) => topic !== ''))];
  const fields = new FieldList()
    .count('Votes', post.votesCount)
    .count('Comments', post.commentsCount)
    .text('Rank', options.rankToday === undefined ? undefined : `#${options.rankToday} today`)
    .text('Makers', listPeople(post.makers), false)
    .text(
      'Topics',
      topics.length === 0
        ? undefined
        : topics.slice(0, MAX_TOPICS).join(', ') +
            (topics.length > MAX_TOPICS ? ` and ${topics.length - MAX_TOPICS} more` : ''),
      false,
    )
    .text('Launched', post.day === undefined ? undefined : formatDay(post.day));
  const lead = news ? 'New post' : 'Post';
  const url = sanitizeUrl(post.url);
  const summary = tagline ? `${lead}: ${excerpt(name, 100)} — ${tagline}` : `${lead}: ${name}`;
  return buildMessage({
    kind: 'post',
    title: name,
    url,
    text: tagline,
    fields: fields.build(),
    thumbnailUrl: sanitizeUrl(post.thumbnailUrl),
    author: post.user === undefined ? undefined : authorOf(post.user),
    timestamp: post.featuredAt ?? post.createdAt,
    color: KIND_COLORS.post,
    footer: footerFor(post.featuredAt !== undefined ? 'featured post' : news ? 'new post' : 'post'),
    fallback: summaryLine(summary),
    // A lookup answers one person; buttons belong on what the channel receives.
    actions: news ? postActions(post.id, url) : undefined,
  });
}
