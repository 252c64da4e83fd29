import type { DirectoryNotification } from '../directory/index.js';
import type { Message } from '../ports/index.js';
import { sanitizeUrl } from '../ports/index.js';
import { buildMessage, footerFor } from './build-message.js';
import { KIND_COLORS } from './colors.js';
import { FieldList } from './fields.js';
import { authorOf } from './people.js';
import { excerpt, singleLine, summaryLine } from './plain-text.js';

/** A headline longer than this moves the whole text into the body. */
const TITLE_CHARS = 150;

/**
 * A notification. The spec shows no fields, so this works from whatever the normaliser
 * found: the text becomes the headline (and the body too when it does not fit one line),
 * the kind and the object it is about become fields.
 */
export function composeNotificationMessage(notification: DirectoryNotification): Message {
  const line = singleLine(notification.text);
  const kind = notification.kind === 'unknown' ? undefined : singleLine(notification.kind) || undefined;
  const title =
    line === ''
      ? kind === undefined
        ? 'New notification'
        : `New notification: ${kind}`
      : excerpt(line, TITLE_CHARS);
  // Repeat the text as the body only when the headline could not hold it as written.
  const text =
    line !== '' && (title !== line || notification.text.trim() !== line) ? notification.text : undefined;
  const about =
    notification.referenceType === undefined && notification.referenceId === undefined
      ? undefined
      : [
          notification.referenceType,
          notification.referenceId === undefined ? undefined : `#${notification.referenceId}`,
        ]
          .filter((part) => part !== undefined)
          .join(' ');
  const fields = new FieldList().text('Type', kind).text('About', about);
  return buildMessage({
    kind: 'notification',
    title,
    url: sanitizeUrl(notification.url),
    text,
    fields: fields.build(),
    author: notification.user === undefined ? undefined : authorOf(notification.user),
    timestamp: notification.createdAt,
    color: KIND_COLORS.notification,
    footer: footerFor('notification'),
    fallback: summaryLine(line === '' ? title : `Notification: ${line}`),
  });
}
