import { operationParameters } from './slack-spec.js';

type Answer = { status: number; body: Record<string, unknown> };

/**
 * `conversations.open` for the fake Slack: opens (or reopens) the one DM channel between the bot
 * and a user, checks the call's parameters against the official OpenAPI spec, and answers with
 * Slack's shapes and errors (`user_not_found` for a user the workspace does not have,
 * `missing_scope` when the app lacks `im:write`). The DM is then an ordinary channel of the fake,
 * so chat.postMessage into it is checked, paced and recorded like any other post.
 */
export class FakeSlackDirectMessages {
  /** DM channel ids by `teamId:userId`. */
  readonly opened = new Map<string, string>();
  /** Users Slack does not know (deactivated, or never in the workspace). */
  readonly unknownUsers = new Set<string>();
  /** The app was installed without `im:write`. */
  missingScope = false;
  readonly #allowed = operationParameters('/conversations.open');

  constructor(
    private readonly addChannel: (id: string) => void,
    private readonly violations: string[],
  ) {}

  /** Which user a DM channel id belongs to, or undefined when it is not a DM the fake opened. */
  userOf(channelId: string): string | undefined {
    for (const [key, id] of this.opened) if (id === channelId) return key.split(':')[1];
    return undefined;
  }

  open(teamId: string, params: Record<string, unknown>): Answer {
    const fail = (error: string): Answer => ({ status: 200, body: { ok: false, error } });
    for (const name of Object.keys(params)) {
      if (!this.#allowed.has(name)) {
        this.violations.push(`conversations.open: parameter ${name} is not in the OpenAPI spec`);
        return fail('invalid_arg_name');
      }
    }
    if (this.missingScope) return fail('missing_scope');
    const users = typeof params['users'] === 'string' ? params['users'] : '';
    if (users === '' || users.includes(',')) {
      this.violations.push('conversations.open: a reminder DM opens a 1:1 DM with exactly one user');
      return fail('invalid_arguments');
    }
    if (this.unknownUsers.has(users)) return fail('user_not_found');
    const key = `${teamId}:${users}`;
    const known = this.opened.get(key);
    const id = known ?? `D${String(this.opened.size + 1).padStart(8, '0')}`;
    if (known === undefined) {
      this.opened.set(key, id);
      this.addChannel(id);
    }
    return {
      status: 200,
      body: { ok: true, ...(known === undefined ? {} : { already_open: true }), channel: { id } },
    };
  }
}
