import type { Message, MessageFormat } from '../ports/index.js';
import { summaryLine } from './plain-text.js';

/**
 * A composed message in a subscription's format, for one destination. `full` is the message
 * itself. `compact` is one linked line: the message's own one-line summary (who, what, the start
 * of the text), which every composer already writes as `fallback`. `title` is the title alone,
 * linked. Both keep only what that line needs (kind, title, link, colour, fallback), so a part
 * added to Message later (images, buttons) stays on the full card unless it is named here.
 * Nothing is escaped or formatted: the text stays plain, and every renderer escapes it and
 * keeps it within its platform's limits exactly as for a full card.
 */
export function formatMessage(message: Message, format: MessageFormat | undefined): Message {
  if (format === undefined || format === 'full') return message;
  // A digest is already the subscription's own summary of many items; one line of it would lose them.
  if (message.kind === 'digest') return message;
  const title = message.title.trim();
  const summary = message.fallback.trim();
  const line = format === 'compact' ? summary || title : title || summary;
  const formatted: Message = {
    kind: message.kind,
    layout: 'line',
    title: summaryLine(line),
    fallback: message.fallback,
  };
  if (message.url !== undefined) formatted.url = message.url;
  if (message.color !== undefined) formatted.color = message.color;
  return formatted;
}
