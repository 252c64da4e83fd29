import type { Message } from '../ports/index.js';
import type { DigestRecurrence } from '../schedule/index.js';

/**
 * One item a schedule holds back instead of posting at once: collected for a digest, held
 * through quiet hours, or over a volume cap. It carries the message as the subscription would
 * have received it, so releasing it individually needs no directory request, and the numbers a
 * digest ranks and shows by.
 */
export interface HeldItem {
  /** The item's key (`FeedItem.key`): the same dedupe identity it would have had posted alone. */
  itemKey: string;
  feed: string;
  /** Composed and formatted for the subscription, as the outbox would have carried it. */
  message: Message;
  /** Epoch ms the item was found. */
  discoveredAt: number;
  /** Why it is held. */
  reason: 'digest' | 'quiet' | 'cap';
  /**
   * A reply's parent (src/subscriptions/thread-options.ts `EntryThread`), so a comment released
   * individually after quiet hours still goes under its post's message.
   */
  thread?: { parentKey: string; broadcast?: true; title?: string };
  /** A post's votes and comment count when last seen, for ranking and showing. */
  votes?: number;
  comments?: number;
}

/** What a digest or summary message is made from (src/messages composes it). */
export interface DigestInput {
  /** `digest`: the scheduled digest; `quiet`: what quiet hours held; `cap`: what a volume cap held. */
  kind: 'digest' | 'quiet' | 'cap';
  feed: string;
  items: readonly HeldItem[];
  /**
   * Items held for this message beyond the held list's limit (HELD_LIMIT in
   * src/held-items/held-item-store.ts): not in `items`, only counted, so the message can say "and N more".
   */
  omitted?: number;
  /** Only the N best by votes, ranked (`--top`); absent: every item, oldest first. */
  top?: number;
  /** The period the items were collected in, epoch ms, `to` exclusive. */
  period: { from: number; to: number };
  /** The IANA zone every time in the message is written in. */
  zone: string;
  recurrence?: DigestRecurrence;
  /** Set when the message is posted later than it was due (the bot was down): when it was due. */
  lateFor?: number;
  /** For `cap`: the limit that held the items, so the summary can name it. */
  cap?: { max: number; per: 'hour' | 'day' };
}
