import {
  composeCollectionMessage,
  composeCommentMessage,
  composeDigest,
  composeLiveEventMessage,
  composeNotificationMessage,
  composePostMessage,
  composeUserMessage,
  formatMessage,
} from '../../src/messages/index.js';
import type { Message } from '../../src/ports/index.js';
import { collection, comment, liveEvent, notification, post, profile } from '../fixtures/parsed-records.js';
import { dailyDigest, heldPost } from './held-items.js';

/**
 * One composed message of every kind the bot sends (and each format's one-line message), named
 * for test titles: what a renderer must draw whole and within its platform's limits.
 */
export function everyMessageKind(): [string, Message][] {
  const composed: [string, Message][] = [
    ['post', composePostMessage(post)],
    ['comment', composeCommentMessage(comment)],
    ['collection', composeCollectionMessage(collection)],
    ['live event', composeLiveEventMessage(liveEvent, { now: Date.parse('2020-01-01T00:00:00Z') })],
    [
      'live reminder',
      composeLiveEventMessage(liveEvent, { reminder: true, now: Date.parse('2020-01-01T00:00:00Z') }),
    ],
    ['notification', composeNotificationMessage(notification)],
    ['user', composeUserMessage(profile)],
    [
      'info',
      { kind: 'info', title: 'Subscriptions', text: 'comments — everything', fallback: 'Subscriptions' },
    ],
    ...composeDigest(
      dailyDigest(
        Array.from({ length: 12 }, (_, i) => heldPost(i)),
        { top: 5 },
      ),
    ).map((message, i): [string, Message] => [`digest part ${i + 1}`, message]),
  ];
  const lines: [string, Message][] = [
    ['post, compact', formatMessage(composePostMessage(post), 'compact')],
    ['comment, title only', formatMessage(composeCommentMessage(comment), 'title')],
  ];
  return [...composed, ...lines];
}
