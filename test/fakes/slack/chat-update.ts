import { blockKitViolations } from './block-kit-limits.js';
import { operationParameters } from './slack-spec.js';

/** One message as the fake channel holds it now: as posted, then as each chat.update left it. */
export interface HeldMessage {
  channel: string;
  ts: string;
  text: unknown;
  blocks: unknown;
  /** How many times chat.update changed it. */
  edits: number;
}

type Answer = { status: number; body: Record<string, unknown> };

/** What the Web API client adds to every call whatever the method. */
const CLIENT_PARAMETERS = ['token', 'team_id'];

/**
 * The fake Slack's `chat.update` and `chat.delete`: it remembers each message chat.postMessage posted and lets
 * chat.update replace it, refusing what Slack refuses — parameters the OpenAPI reference does
 * not know, a `ts` that is no message of that channel (`message_not_found`), no text, and blocks
 * that break Block Kit's limits.
 */
export class FakeMessageUpdates {
  /** Every message posted, by `channel ts`. */
  readonly messages = new Map<string, HeldMessage>();
  private readonly allowed = new Set([...operationParameters('/chat.update'), ...CLIENT_PARAMETERS]);
  private readonly allowedDelete = new Set([...operationParameters('/chat.delete'), ...CLIENT_PARAMETERS]);
  /** Messages chat.delete removed, as `channel ts`, in order. */
  readonly deleted: string[] = [];

  /** `violations` is the fake Slack's own list: a test expects it empty. */
  constructor(private readonly violations: string[]) {}

  /** chat.postMessage posted a message. */
  posted(channel: string, ts: string, params: Record<string, unknown>): void {
    this.messages.set(`${channel} ${ts}`, {
      channel,
      ts,
      text: params['text'],
      blocks: params['blocks'],
      edits: 0,
    });
  }

  /** A message as the channel shows it now. */
  message(channel: string, ts: string): HeldMessage | undefined {
    return this.messages.get(`${channel} ${ts}`);
  }

  /** Slack deletes a message (someone removed it): a later chat.update finds nothing. */
  forget(channel: string, ts: string): void {
    this.messages.delete(`${channel} ${ts}`);
  }

  /**
   * chat.delete: removes a message the bot posted; one that is no message of that channel is
   * `message_not_found`, as Slack answers. Parameters are checked against the OpenAPI reference.
   */
  delete(params: Record<string, unknown>): Answer {
    const unknown = this.unknownParameter('chat.delete', params, this.allowedDelete);
    if (unknown !== undefined) return unknown;
    const key = `${String(params['channel'])} ${String(params['ts'])}`;
    if (!this.messages.delete(key)) return fail('message_not_found');
    this.deleted.push(key);
    return { status: 200, body: { ok: true, channel: params['channel'], ts: params['ts'] } };
  }

  private unknownParameter(
    method: string,
    params: Record<string, unknown>,
    allowed: ReadonlySet<string>,
  ): Answer | undefined {
    const name = Object.keys(params).find((key) => !allowed.has(key));
    if (name === undefined) return undefined;
    this.violations.push(`${method}: parameter ${name} is not in the OpenAPI spec`);
    return fail('invalid_arg_name');
  }

  answer(params: Record<string, unknown>): Answer {
    const unknown = this.unknownParameter('chat.update', params, this.allowed);
    if (unknown !== undefined) return unknown;
    const blocks = params['blocks'];
    if ((typeof params['text'] !== 'string' || params['text'] === '') && blocks === undefined) {
      return fail('no_text');
    }
    if (blocks !== undefined) {
      const problems = blockKitViolations(blocks);
      this.violations.push(...problems);
      if (problems.length > 0) return fail('invalid_blocks', { response_metadata: { messages: problems } });
    }
    const channel = String(params['channel']);
    const ts = String(params['ts']);
    const held = this.messages.get(`${channel} ${ts}`);
    if (held === undefined) return fail('message_not_found');
    held.text = params['text'];
    held.blocks = blocks;
    held.edits += 1;
    return { status: 200, body: { ok: true, channel, ts, text: params['text'] } };
  }
}

function fail(error: string, extra: Record<string, unknown> = {}): Answer {
  return { status: 200, body: { ok: false, error, ...extra } };
}
