import type { FeedItem } from '../feeds/feed-item.js';
import {
  composeCollectionMessage,
  composeCommentMessage,
  composeLiveEventMessage,
  composeNotificationMessage,
  composePostMessage,
} from '../messages/index.js';
import type { Message } from '../ports/message.js';
import type { Clock } from '../time/clock.js';

/** Composes the one platform-neutral message for a feed item (once, however many destinations). */
export function createItemComposer(clock: Clock): (item: FeedItem) => Message {
  return (item) => {
    const { record } = item;
    switch (record.type) {
      case 'post':
        return composePostMessage(record.post);
      case 'comment':
        return composeCommentMessage(record.comment);
      case 'collection':
        return composeCollectionMessage(record.collection);
      case 'live':
        return composeLiveEventMessage(record.event, {
          reminder: item.event === 'reminder',
          now: clock.now(),
        });
      case 'notification':
        return composeNotificationMessage(record.notification);
    }
  };
}
