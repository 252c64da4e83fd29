import { REQUEST_SCHEMAS, validateAgainstSpec } from './discord-spec.js';

type Answer = { status: number; body?: unknown };

/**
 * `POST /users/@me/channels` for the fake Discord: opens (or returns) the DM channel with
 * `recipient_id`, the body checked against the official OpenAPI spec. The DM is an ordinary
 * channel of the fake afterwards, so posts into it are validated and paced like any other; a user
 * who takes no DMs from the bot gets the channel but every post answers 403 50007, as Discord does.
 */
export class FakeDiscordDirectMessages {
  /** DM channel ids by user id. */
  readonly opened = new Map<string, string>();
  /** Users whose privacy settings refuse DMs from the bot. */
  readonly closedDms = new Set<string>();

  constructor(
    private readonly hooks: {
      newId: () => string;
      addChannel: (id: string) => void;
      refuseEveryPost: (channelId: string, error: { status: number; code: number; message: string }) => void;
      problems: string[];
    },
  ) {}

  /** Which user a DM channel belongs to, or undefined when it is not a DM the fake opened. */
  userOf(channelId: string): string | undefined {
    for (const [user, id] of this.opened) if (id === channelId) return user;
    return undefined;
  }

  open(body: unknown): Answer {
    const errors = validateAgainstSpec(REQUEST_SCHEMAS.createDm, body);
    for (const problem of errors) this.hooks.problems.push(`create DM: ${problem}`);
    const recipient = (body as { recipient_id?: unknown } | null)?.recipient_id;
    if (errors.length > 0 || typeof recipient !== 'string' || !/^\d{17,20}$/.test(recipient)) {
      return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: {} } };
    }
    let id = this.opened.get(recipient);
    if (id === undefined) {
      id = this.hooks.newId();
      this.opened.set(recipient, id);
      this.hooks.addChannel(id);
      if (this.closedDms.has(recipient)) {
        this.hooks.refuseEveryPost(id, {
          status: 403,
          code: 50007,
          message: 'Cannot send messages to this user',
        });
      }
    }
    return {
      status: 200,
      body: {
        id,
        type: 1,
        last_message_id: null,
        flags: 0,
        recipients: [{ id: recipient, username: `user${recipient.slice(-4)}`, discriminator: '0' }],
      },
    };
  }
}
