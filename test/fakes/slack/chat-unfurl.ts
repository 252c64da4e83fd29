import { blockKitViolations } from './block-kit-limits.js';
import { linkShared, postEvent } from './events-api.js';
import { operationParameters } from './slack-spec.js';

/** One chat.unfurl the fake accepted. */
export interface RecordedUnfurl {
  /** `channel` + `ts`, or `unfurl_id` + `source`: which message the previews attach to. */
  target: { channel: string; ts: string } | { unfurlId: string; source: string };
  /** Each previewed URL with the attachment sent for it. */
  unfurls: Record<string, { blocks?: unknown[] }>;
}

/** A pasted message as the fake remembers it: the links Slack announced in its `link_shared`. */
export interface SharedLinks {
  teamId: string;
  channel: string;
  user: string;
  urls: string[];
  /** The link is still in the message composer: Slack sends `source: composer` and an `unfurl_id`. */
  composer?: boolean;
  /** When the request is signed, Unix seconds (default now): an old one replays a stale event. */
  signedAt?: number;
}

type Answer = { status: number; body: Record<string, unknown> };

/**
 * `unfurl_id` and `source` came after the vendored 2021 spec: Slack's method reference
 * (docs.slack.dev/reference/methods/chat.unfurl) and @slack/web-api's `ChatUnfurlArguments`
 * accept them as the alternative to `channel` + `ts`.
 */
const LATER_PARAMETERS = ['unfurl_id', 'source'];

/**
 * What the Web API client adds to every call whatever the method: the token (or its header), and
 * `team_id` when the client is a Bolt listener's, created for the event's workspace.
 */
const CLIENT_PARAMETERS = ['token', 'team_id'];

/**
 * The fake Slack's `chat.unfurl` and the `link_shared` events that lead to it. Slack sends
 * `link_shared` when someone pastes a link on one of the app's unfurl domains; `share` plays that
 * part (a signed event to the bot) and remembers which links which message holds, so `answer`
 * can refuse what Slack refuses: parameters the OpenAPI reference does not know, a request that
 * names no message (`channel` + `ts`, or `unfurl_id` + `source`), a URL the message did not
 * contain, and attachments whose blocks break Block Kit's limits.
 */
export class FakeUnfurls {
  readonly sent: RecordedUnfurl[] = [];
  private readonly messages = new Map<string, SharedLinks>();
  private readonly allowed = new Set([
    ...operationParameters('/chat.unfurl'),
    ...LATER_PARAMETERS,
    ...CLIENT_PARAMETERS,
  ]);
  private seq = 0;

  /** `violations` is the fake Slack's own list: a test expects it empty. */
  constructor(private readonly violations: string[]) {}

  /**
   * Someone pastes `urls` in a message: Slack posts `link_shared` to the bot's `/slack/events`,
   * signed with `signingSecret` (a wrong one forges it). Resolves with the bot's answer and the
   * message's `ts` (or `unfurl_id` in the composer).
   */
  async share(
    botUrl: string,
    signingSecret: string,
    shared: SharedLinks,
  ): Promise<{ response: Response; messageTs: string; unfurlId: string }> {
    this.seq += 1;
    const messageTs = `${1_790_000_000 + this.seq}.${String(this.seq).padStart(6, '0')}`;
    const unfurlId = `C${this.seq}.${messageTs}.unfurl`;
    this.messages.set(
      shared.composer === true ? `unfurl ${unfurlId}` : `${shared.channel} ${messageTs}`,
      shared,
    );
    const event = linkShared({
      channel: shared.composer === true ? 'COMPOSER' : shared.channel,
      user: shared.user,
      messageTs: shared.composer === true ? `${messageTs}.composer` : messageTs,
      urls: shared.urls,
      unfurlId,
      source: shared.composer === true ? 'composer' : 'conversations_history',
    });
    const response = await postEvent(botUrl, signingSecret, shared.teamId, event, shared.signedAt);
    return { response, messageTs, unfurlId };
  }

  /** Slack's answer to a `chat.unfurl` call. */
  answer(params: Record<string, unknown>): Answer {
    const fail = (error: string, problem?: string, extra: Record<string, unknown> = {}): Answer => {
      if (problem !== undefined) this.violations.push(`chat.unfurl: ${problem}`);
      return { status: 200, body: { ok: false, error, ...extra } };
    };
    for (const name of Object.keys(params)) {
      if (!this.allowed.has(name))
        return fail('invalid_arg_name', `parameter ${name} is not in the OpenAPI spec`);
    }
    const target = this.target(params);
    if (target === undefined)
      return fail('invalid_arguments', 'needs channel + ts, or unfurl_id + source, and not half of either');
    const message = this.messages.get(
      'channel' in target ? `${target.channel} ${target.ts}` : `unfurl ${target.unfurlId}`,
    );
    if (message === undefined) return fail('cannot_unfurl_url', 'names no message whose links were shared');
    const unfurls = this.parseUnfurls(params['unfurls']);
    if (typeof unfurls === 'string') return fail(unfurls, `unfurls: ${unfurls}`);
    const problems: string[] = [];
    for (const [url, attachment] of Object.entries(unfurls)) {
      if (!message.urls.includes(url))
        return fail('cannot_unfurl_url', `${url} is not a link of that message`);
      if (attachment.blocks !== undefined)
        problems.push(...blockKitViolations(attachment.blocks).map((problem) => `${url}: ${problem}`));
    }
    if (problems.length > 0) {
      this.violations.push(...problems);
      return fail('invalid_blocks', undefined, { response_metadata: { messages: problems } });
    }
    this.sent.push({ target, unfurls });
    return { status: 200, body: { ok: true } };
  }

  private target(params: Record<string, unknown>): RecordedUnfurl['target'] | undefined {
    const text = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : undefined);
    const [channel, ts, unfurlId, source] = [text('channel'), text('ts'), text('unfurl_id'), text('source')];
    const byMessage = channel !== undefined && ts !== undefined;
    const byId = unfurlId !== undefined && source !== undefined;
    // Half a pair is a mistake whichever other pair is complete.
    const half =
      (channel === undefined) !== (ts === undefined) || (unfurlId === undefined) !== (source === undefined);
    if (half || byMessage === byId) return undefined;
    return byMessage ? { channel, ts } : { unfurlId: unfurlId as string, source: source as string };
  }

  /** The `unfurls` map (a JSON string in a form body), or the Slack error for a bad one. */
  private parseUnfurls(raw: unknown): Record<string, { blocks?: unknown[] }> | string {
    let value = raw;
    if (typeof raw === 'string') {
      try {
        value = JSON.parse(raw);
      } catch {
        return 'invalid_json';
      }
    }
    if (value === undefined) return 'missing_unfurls';
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'json_not_object';
    if (Object.keys(value).length === 0) return 'missing_unfurls';
    return value as Record<string, { blocks?: unknown[] }>;
  }
}
