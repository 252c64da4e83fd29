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

/**
 * How a digest too long for one message is laid out (issue 29: a digest is one message in the
 * channel). Each part holds at most ENTRY_LIMITS of lines; what differs is where the parts after
 * the first go:
 * - `thread`: the first part is the channel's one message and says how many more its thread
 *   holds; the others are replies in that thread, titled "(2/3)"…;
 * - `summary`: the first part alone, saying how many more there are and `seeMore`, where they
 *   can be read (a platform that cannot thread, a subscription with threads off);
 * - `parts`: every part as a message of its own, titled "(1/3)"… (what `/directory digest` and
 *   the render preview show).
 */
export type DigestLayout = { rest: 'thread' } | { rest: 'summary'; seeMore: string } | { rest: 'parts' };
