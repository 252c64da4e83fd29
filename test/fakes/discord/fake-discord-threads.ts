import { REQUEST_SCHEMAS, validateAgainstSpec } from './discord-spec.js';

type Answer = { status: number; body?: unknown };

interface FakeThread {
  id: string;
  parentChannelId: string;
  /** The message it was started from (its id is the thread's). */
  messageId: string;
  name: string;
  archived: boolean;
  /** Locked: only members with Manage Threads may unarchive it. */
  locked: boolean;
}

const INVALID_BODY = { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: {} } };
const MISSING_PERMISSIONS = { status: 403, body: { code: 50013, message: 'Missing Permissions' } };

/**
 * Threads for the fake Discord REST API. `POST /channels/{id}/messages/{id}/threads` starts a
 * public thread from a message, as Discord does: the thread is a channel whose id is the message's,
 * a second start answers 400 160004, a message the fake never took answers 404 10008. Posts into
 * a thread go through the ordinary create-message route (a thread is a channel); an archived
 * thread answers 400 50083 until `PATCH /channels/{thread}` with `archived: false`, which a locked
 * thread refuses (403 50013). Channels can deny Create Public Threads or Send Messages in Threads.
 * Bodies are checked against the official OpenAPI spec.
 */
export class FakeDiscordThreads {
  readonly threads = new Map<string, FakeThread>();
  /** Channels whose threads the bot may not start (no Create Public Threads). */
  readonly noCreate = new Set<string>();
  /** Channels in whose threads the bot may not post (no Send Messages in Threads). */
  readonly noSendInThreads = new Set<string>();
  /** Forum channels: no plain messages, each post a thread of its own (`POST /channels/{id}/threads`). */
  readonly forums = new Set<string>();
  /** Forums with Require Tags on: a post without `applied_tags` answers 400 40067. */
  readonly requireTags = new Set<string>();

  constructor(
    private readonly hooks: {
      hasMessage: (channelId: string, messageId: string) => boolean;
      hasChannel: (channelId: string) => boolean;
      addChannel: (id: string) => void;
      /** Files a message the fake took under a channel (a forum post's first message). */
      addMessage: (channelId: string, id: string, body: Record<string, unknown>) => void;
      newId: () => string;
      problems: string[];
    },
  ) {}

  start(channelId: string, messageId: string, body: unknown): Answer {
    const errors = validateAgainstSpec(REQUEST_SCHEMAS.startThreadFromMessage, body);
    for (const problem of errors) this.hooks.problems.push(`start thread: ${problem}`);
    if (errors.length > 0) return INVALID_BODY;
    if (!this.hooks.hasChannel(channelId))
      return { status: 404, body: { code: 10003, message: 'Unknown Channel' } };
    if (this.noCreate.has(channelId)) return MISSING_PERMISSIONS;
    if (!this.hooks.hasMessage(channelId, messageId)) {
      return { status: 404, body: { code: 10008, message: 'Unknown Message' } };
    }
    if (this.threads.has(messageId)) {
      return {
        status: 400,
        body: { code: 160004, message: 'A thread has already been created for this message' },
      };
    }
    const name = String((body as { name?: unknown }).name);
    this.threads.set(messageId, {
      id: messageId,
      parentChannelId: channelId,
      messageId,
      name,
      archived: false,
      locked: false,
    });
    this.hooks.addChannel(messageId);
    return {
      status: 201,
      body: { id: messageId, type: 11, parent_id: channelId, name, guild_id: '100000000000000001' },
    };
  }

  /**
   * `POST /channels/{id}/threads` in a forum channel: a forum post, i.e. a thread whose first
   * message is `message`; like Discord, the first message's id is the thread's.
   */
  startForumPost(channelId: string, body: unknown): Answer {
    const errors = validateAgainstSpec(REQUEST_SCHEMAS.startForumPost, body);
    for (const problem of errors) this.hooks.problems.push(`forum post: ${problem}`);
    if (errors.length > 0) return INVALID_BODY;
    if (!this.hooks.hasChannel(channelId))
      return { status: 404, body: { code: 10003, message: 'Unknown Channel' } };
    if (!this.forums.has(channelId))
      return { status: 400, body: { code: 50024, message: 'Cannot execute action on this channel type' } };
    const request = body as { name: string; message: Record<string, unknown>; applied_tags?: unknown[] };
    if (this.requireTags.has(channelId) && (request.applied_tags ?? []).length === 0) {
      const message = 'A tag is required to create a forum post in this channel';
      return { status: 400, body: { code: 40067, message } };
    }
    const id = this.hooks.newId();
    this.threads.set(id, {
      id,
      parentChannelId: channelId,
      messageId: id,
      name: request.name,
      archived: false,
      locked: false,
    });
    this.hooks.addChannel(id);
    this.hooks.addMessage(id, id, request.message);
    return {
      status: 201,
      body: {
        id,
        type: 11,
        parent_id: channelId,
        name: request.name,
        message: { id, channel_id: id, ...request.message },
      },
    };
  }

  /** `PATCH /channels/{id}` for a thread: unarchive (or archive) it. */
  update(channelId: string, body: unknown): Answer {
    const errors = validateAgainstSpec(REQUEST_SCHEMAS.updateThread, body);
    for (const problem of errors) this.hooks.problems.push(`update thread: ${problem}`);
    if (errors.length > 0) return INVALID_BODY;
    const thread = this.threads.get(channelId);
    if (thread === undefined) return { status: 404, body: { code: 10003, message: 'Unknown Channel' } };
    const archived = (body as { archived?: unknown }).archived;
    if (archived === false && thread.locked) return MISSING_PERMISSIONS;
    if (typeof archived === 'boolean') thread.archived = archived;
    return {
      status: 200,
      body: { id: thread.id, type: 11, parent_id: thread.parentChannelId, name: thread.name },
    };
  }

  /** The answer to a post into `channelId` when it is a thread that will not take it; undefined otherwise. */
  refusePost(channelId: string): Answer | undefined {
    if (this.forums.has(channelId)) {
      return { status: 400, body: { code: 50008, message: 'Cannot send messages in a non-text channel' } };
    }
    const thread = this.threads.get(channelId);
    if (thread === undefined) return undefined;
    if (this.noSendInThreads.has(thread.parentChannelId)) return MISSING_PERMISSIONS;
    if (thread.archived) return { status: 400, body: { code: 50083, message: 'Thread is archived' } };
    return undefined;
  }

  /** Archives a thread (Discord does after its auto-archive time); `locked`: only moderators may reopen it. */
  archive(threadId: string, locked = false): void {
    const thread = this.threads.get(threadId);
    if (thread === undefined) throw new Error(`no thread ${threadId}`);
    thread.archived = true;
    thread.locked = locked;
  }

  /** Threads started from messages of one channel. */
  of(channelId: string): FakeThread[] {
    return [...this.threads.values()].filter((t) => t.parentChannelId === channelId);
  }
}
