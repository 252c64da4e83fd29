/**
 * The platform-neutral message. The core composes one from an item once; each adapter
 * renders it for its platform. Every string here is PLAIN TEXT that may come from users
 * (comment bodies, names, taglines): renderers must escape it so it can never ping a
 * channel or a user or break the markup. Nothing in a Message is pre-formatted markup.
 */
import type { MentionTarget } from './mentions.js';
import type { MessageAction } from './message-actions.js';

export type ItemKind =
  | 'post'
  | 'comment'
  | 'collection'
  | 'live'
  | 'live-reminder'
  | 'notification'
  | 'user'
  | 'info'
  /** A digest or summary of several items (issue 14): its items are in `entries`. */
  | 'digest';

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

/**
 * How much list one message may carry, as the composer measures it (see `entryWeight`): every
 * renderer must show this much whole. Sized by the tightest platform: a Discord embed
 * description holds 4,096 characters, and escaping can double text (a backslash before every
 * markdown character), so 20 entries of at most 3,400 weighted characters leave room for the
 * message's own text. Slack (50 blocks, 3,000 characters a section) has more room than that.
 */
export const ENTRY_LIMITS = {
  entries: 20,
  weight: 3_400,
  title: 150,
  detail: 60,
  url: 400,
} as const;

/**
 * The most characters an entry can take once rendered on any platform: its title and detail
 * escaped (at most doubled), its URL, and the markup around them (rank, brackets, separator).
 */
export function entryWeight(entry: MessageEntry): number {
  return 2 * entry.title.length + 2 * (entry.detail?.length ?? 0) + (entry.url?.length ?? 0) + 16;
}

export interface MessageField {
  name: string;
  value: string;
  /** Render side by side where the platform supports it. */
  inline?: boolean;
}

/**
 * One line of a list message (a digest): the title linked to `url`, then `detail` as small
 * print. `rank` is shown as "3." for ranked lists (a top-N digest); absent, the line is a
 * bullet. Plain text: renderers escape it, and each line is shown whole or not at all (a line
 * cut in half would break its link).
 */
export interface MessageEntry {
  title: string;
  url?: string;
  detail?: string;
  rank?: number;
}

export interface MessageAuthor {
  name: string;
  url?: string;
  iconUrl?: string;
}

/**
 * How a poster that can choose its face shows itself (a Discord webhook's `username` and
 * `avatar_url`): set from the subscription's configuration, ignored by platforms without it.
 */
export interface MessageSender {
  /** Plain text; renderers cut it to their platform's limit. */
  name?: string;
  avatarUrl?: string;
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
  /**
   * A list under the text, in order: the items a digest or summary folds together. Composers
   * keep a message's entries within {@link ENTRY_LIMITS} so every renderer can show them all.
   */
  entries?: MessageEntry[];
  /** Absent: the full card. See {@link MessageLayout}. */
  layout?: MessageLayout;
  /**
   * Who this message pings: set by the core from the subscription's configuration (`--mention`,
   * only when the item matches `--mention-on`), never from the item's text. Renderers ping exactly
   * these targets (Discord `allowed_mentions`, Slack `<!subteam^…>`, Teams mention entities) and
   * keep every other mention in the text inert.
   */
  mentions?: MentionTarget[];
  /** The subscription's chosen poster name and avatar, where the platform takes them. */
  sender?: MessageSender;
}
