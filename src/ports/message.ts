/**
 * The platform-neutral message. The core composes one from an item once; each adapter
 * renders it for its platform. Every string here is PLAIN TEXT that may come from users
 * (comment bodies, names, taglines): renderers must escape it so it can never ping a
 * channel or a user or break the markup. Nothing in a Message is pre-formatted markup.
 */
import type { MessageAction } from './message-actions.js';

export type ItemKind =
  | 'post'
  | 'comment'
  | 'collection'
  | 'live'
  | 'live-reminder'
  | 'notification'
  | 'user'
  | 'info';

/**
 * How a subscription wants its items shown: `full` is the whole card (the default), `compact`
 * one linked line summarising the item (who, what, the start of the text), `title` only the
 * item's title as a link. Chosen per subscription, applied per destination at delivery.
 */
export const MESSAGE_FORMATS = ['full', 'compact', 'title'] as const;
export type MessageFormat = (typeof MESSAGE_FORMATS)[number];

export function isMessageFormat(value: string): value is MessageFormat {
  return (MESSAGE_FORMATS as readonly string[]).includes(value);
}

/**
 * How a renderer lays a message out. Absent: the full card. `line`: one line, the title linked
 * to `url` (no header, no buttons); such a message carries nothing else worth showing.
 */
export type MessageLayout = 'line';

export interface MessageField {
  name: string;
  value: string;
  /** Render side by side where the platform supports it. */
  inline?: boolean;
}

export interface MessageAuthor {
  name: string;
  url?: string;
  iconUrl?: string;
}

export interface Message {
  kind: ItemKind;
  /** Short headline, e.g. the post name. Plain text. */
  title: string;
  /** Link to the item on the directory. */
  url?: string;
  /** Body text, e.g. a comment body or a tagline. Plain text; may be very long. */
  text?: string;
  fields?: MessageField[];
  /** Large image. */
  imageUrl?: string;
  /** Small image beside the text. */
  thumbnailUrl?: string;
  author?: MessageAuthor;
  /** ISO 8601 instant the item happened at. */
  timestamp?: string;
  /** `#rrggbb`. */
  color?: string;
  /** Small print under the message, e.g. "Directory · new comment". Plain text. */
  footer?: string;
  /**
   * Buttons under the message, in order: links, and commands the clicker runs in this channel
   * (see message-actions.ts). Renderers keep them within their platform's limits; formats and
   * surfaces without buttons (the console prints a hint line) leave them off.
   */
  actions?: MessageAction[];
  /** One-line plain-text summary for notifications and clients that cannot show rich layouts. */
  fallback: string;
  /** Absent: the full card. See {@link MessageLayout}. */
  layout?: MessageLayout;
}
