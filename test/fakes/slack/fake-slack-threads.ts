/** One message the fake Slack took, as tests read a channel. */
export interface FakeSlackMessage {
  ts: string;
  text: string;
  /** Set on a reply: the parent's ts. */
  threadTs?: string;
  /** A reply also shown in the channel (`reply_broadcast`). */
  broadcast?: boolean;
}

/**
 * Threads for the fake Slack Web API: chat.postMessage with `thread_ts` files the message under
 * its parent (kept apart from the channel's top level, as Slack shows it), `reply_broadcast`
 * also shows it in the channel. A `thread_ts` that names no message the fake posted in that
 * channel answers `thread_not_found` and is recorded as a violation (the bot only threads under
 * messages it posted); `reply_broadcast` without `thread_ts` is a violation too.
 */
export class FakeSlackThreads {
  /** Top-level messages (and broadcast replies) by channel, in order. */
  readonly channelMessages = new Map<string, FakeSlackMessage[]>();
  /** Replies by `${channel}:${parent ts}`, in order. */
  readonly replies = new Map<string, FakeSlackMessage[]>();

  constructor(private readonly violations: string[]) {}

  /** The Slack error for a post that cannot go where it asks, or undefined. */
  check(channel: string, params: Record<string, unknown>): string | undefined {
    const threadTs = params['thread_ts'];
    const broadcast = params['reply_broadcast'];
    if (threadTs === undefined) {
      if (broadcast !== undefined && String(broadcast) !== 'false') {
        this.violations.push('chat.postMessage: reply_broadcast without thread_ts');
      }
      return undefined;
    }
    const known = (this.channelMessages.get(channel) ?? []).some((m) => m.ts === threadTs && !m.threadTs);
    if (!known) {
      this.violations.push(
        `chat.postMessage: thread_ts ${String(threadTs)} is no message posted in ${channel}`,
      );
      return 'thread_not_found';
    }
    return undefined;
  }

  /** Files a message Slack accepted. */
  posted(channel: string, ts: string, params: Record<string, unknown>): void {
    const text = typeof params['text'] === 'string' ? params['text'] : '';
    const threadTs = typeof params['thread_ts'] === 'string' ? params['thread_ts'] : undefined;
    if (threadTs === undefined) {
      push(this.channelMessages, channel, { ts, text });
      return;
    }
    const broadcast = params['reply_broadcast'] === true || params['reply_broadcast'] === 'true';
    const reply = { ts, text, threadTs, ...(broadcast ? { broadcast } : {}) };
    push(this.replies, `${channel}:${threadTs}`, reply);
    if (broadcast) push(this.channelMessages, channel, reply);
  }

  /** The replies under one message. */
  repliesTo(channel: string, parentTs: string): FakeSlackMessage[] {
    return this.replies.get(`${channel}:${parentTs}`) ?? [];
  }

  /** What the channel shows at its top level (posts and broadcast replies). */
  topLevel(channel: string): FakeSlackMessage[] {
    return this.channelMessages.get(channel) ?? [];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
