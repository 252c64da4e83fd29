import type { FeedItem, FeedRecord } from '../feeds/feed-item.js';
import {
  composeCollectionMessage,
  composeCommentMessage,
  composeLiveEventMessage,
  composeNotificationMessage,
  composePostMessage,
} from '../messages/index.js';
import type { Clock, Message } from '../ports/index.js';

/** The message for one feed record; `reminder` turns a live event into its "starting soon" form. */
export function composeFeedRecord(record: FeedRecord, options: { now: number; reminder?: boolean }): Message {
  switch (record.type) {
    case 'post':
      return composePostMessage(
        record.post,
        record.rankToday === undefined ? {} : { rankToday: record.rankToday },
      );
    case 'comment':
      return composeCommentMessage(record.comment);
    case 'collection':
      return composeCollectionMessage(record.collection);
    case 'live':
      return composeLiveEventMessage(record.event, { reminder: options.reminder === true, now: options.now });
    case 'notification':
      return composeNotificationMessage(record.notification);
  }
}

/** Composes the one platform-neutral message for a feed item (once, however many destinations). */
export function createItemComposer(clock: Clock): (item: FeedItem) => Message {
  return (item) => composeFeedRecord(item.record, { now: clock.now(), reminder: item.event === 'reminder' });
}
