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

  constructor(
    private readonly messages: Map<string, { id: string; body: Record<string, unknown> }[]>,
    /** Records problems like a create; false when the body must be refused. */
    private readonly check: (body: unknown) => boolean,
  ) {}

  /** Someone deletes a message in the channel: a later edit of it answers 10008. */
  forget(channelId: string, messageId: string): void {
    const list = this.messages.get(channelId) ?? [];
    this.messages.set(
      channelId,
      list.filter((m) => m.id !== messageId),
    );
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
