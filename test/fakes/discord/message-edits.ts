/** One PATCH the fake accepted. */
export interface RecordedEdit {
  channelId: string;
  messageId: string;
  body: Record<string, unknown>;
}

type Answer = { status: number; body?: unknown };

/**
 * The fake Discord's `PATCH /channels/{channel}/messages/{message}`: it changes a message the
 * fake holds (`messages`, which `POST …/messages` fills) and answers 10008 Unknown Message for one
 * it does not (deleted, or never there). The body is checked against the spec's
 * `MessageEditRequestPartial` and the documented limits by the caller's `check`.
 */
export class FakeDiscordEdits {
  readonly edits: RecordedEdit[] = [];
  /** `DELETE /channels/{channel}/messages/{message}` the fake carried out, in order. */
  readonly deletions: { channelId: string; messageId: string }[] = [];
  /** Messages whose deletion Discord refuses with 50013 Missing Permissions. */
  readonly refuseDeleting = new Set<string>();

  constructor(
    private readonly messages: Map<string, { id: string; body: Record<string, unknown> }[]>,
    /** Records problems like a create; false when the body must be refused. */
    private readonly check: (body: unknown) => boolean,
    /** Where the fake notes requests that break the spec. */
    private readonly problems: string[] = [],
  ) {}

  /** Someone deletes a message in the channel: a later edit of it answers 10008. */
  forget(channelId: string, messageId: string): void {
    const list = this.messages.get(channelId) ?? [];
    this.messages.set(
      channelId,
      list.filter((m) => m.id !== messageId),
    );
  }

  /**
   * Deletes a message the fake holds: 204 with no body, as the spec's `delete_message` answers,
   * 10008 for one it does not hold. The spec gives the operation no request body: one sent is a problem.
   */
  delete(channelId: string, messageId: string, body: unknown): Answer {
    if (
      body !== undefined &&
      !(typeof body === 'object' && body !== null && Object.keys(body).length === 0)
    ) {
      this.problems.push(`delete message: a body was sent (${JSON.stringify(body)}), the spec has none`);
    }
    if (this.refuseDeleting.has(messageId)) {
      return { status: 403, body: { message: 'Missing Permissions', code: 50013 } };
    }
    const held = this.messages.get(channelId)?.find((m) => m.id === messageId);
    if (held === undefined) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    this.forget(channelId, messageId);
    this.deletions.push({ channelId, messageId });
    return { status: 204 };
  }

  answer(channelId: string, messageId: string, body: unknown): Answer {
    if (!this.check(body)) {
      return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: {} } };
    }
    const held = this.messages.get(channelId)?.find((m) => m.id === messageId);
    if (held === undefined) return { status: 404, body: { message: 'Unknown Message', code: 10008 } };
    held.body = { ...held.body, ...(body as Record<string, unknown>) };
    this.edits.push({ channelId, messageId, body: body as Record<string, unknown> });
    return { status: 200, body: { id: messageId, channel_id: channelId, ...held.body } };
  }
}
