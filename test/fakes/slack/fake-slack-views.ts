import { blockKitViolations } from './block-kit-limits.js';
import { signedHeaders } from './signing.js';
import { operationParameters } from './slack-spec.js';

/** Slack honours a `trigger_id` for 3 seconds after the interaction that carried it. */
const TRIGGER_LIFETIME_MS = 3_000;

/** Block Kit view limits (CONTRACTS.md §1(e); limits.json `block_kit`; Slack's view reference). */
const VIEW = {
  blocks: 100,
  title: 24,
  button: 24,
  callbackId: 255,
  privateMetadata: 3000,
  label: 2000,
  hint: 2000,
  placeholder: 150,
  blockId: 255,
  actionId: 255,
  optionText: 75,
  optionValue: 75,
  selectOptions: 100,
  checkboxOptions: 10,
  plainTextInputMax: 3000,
} as const;

const INPUT_ELEMENTS = new Set([
  'plain_text_input',
  'number_input',
  'static_select',
  'checkboxes',
  'radio_buttons',
  'multi_static_select',
  'conversations_select',
  'users_select',
]);

type Answer = { status: number; body: Record<string, unknown> };

/** A modal the bot opened, as Slack keeps it (its id, whose it is, the view it sent). */
export interface OpenedView {
  id: string;
  teamId: string;
  userId: string | undefined;
  view: Record<string, unknown>;
}

/** One chat.postEphemeral the fake accepted. */
export interface EphemeralPost {
  channel: string;
  user: string;
  text: string | undefined;
  blocks: unknown;
}

/** The view problems Slack answers with `invalid_arguments`, in its `response_metadata.messages` shape. */
export function viewViolations(view: unknown): string[] {
  const problems: string[] = [];
  const v = view as Record<string, unknown> | null;
  if (typeof v !== 'object' || v === null) return ['must provide an object [json-pointer:/view]'];
  if (v['type'] !== 'modal') problems.push('must be modal [json-pointer:/view/type]');
  const text = (value: unknown, max: number, at: string, required = true): void => {
    const t = value as { type?: unknown; text?: unknown } | undefined;
    if (t === undefined) {
      if (required) problems.push(`must provide a text object [json-pointer:${at}]`);
      return;
    }
    if (t.type !== 'plain_text') problems.push(`must be plain_text [json-pointer:${at}/type]`);
    if (typeof t.text !== 'string' || t.text.length < 1)
      problems.push(`must be more than 0 characters [json-pointer:${at}/text]`);
    else if (t.text.length > max)
      problems.push(`must be less than ${max + 1} characters [json-pointer:${at}/text]`);
  };
  const maxString = (value: unknown, max: number, at: string): void => {
    if (value !== undefined && (typeof value !== 'string' || value.length > max))
      problems.push(`must be a string of at most ${max} characters [json-pointer:${at}]`);
  };
  text(v['title'], VIEW.title, '/view/title');
  text(v['submit'], VIEW.button, '/view/submit', false);
  text(v['close'], VIEW.button, '/view/close', false);
  maxString(v['callback_id'], VIEW.callbackId, '/view/callback_id');
  maxString(v['private_metadata'], VIEW.privateMetadata, '/view/private_metadata');
  const blocks = v['blocks'];
  if (!Array.isArray(blocks)) return [...problems, 'must provide an array [json-pointer:/view/blocks]'];
  if (blocks.length > VIEW.blocks)
    problems.push(`no more than ${VIEW.blocks} items allowed [json-pointer:/view/blocks]`);
  const blockIds = new Set<string>();
  const others: unknown[] = [];
  blocks.forEach((raw, index) => {
    const block = raw as Record<string, unknown>;
    const at = `/view/blocks/${index}`;
    const id = block['block_id'];
    maxString(id, VIEW.blockId, `${at}/block_id`);
    if (typeof id === 'string') {
      if (blockIds.has(id)) problems.push(`block_id ${id} is not unique [json-pointer:${at}/block_id]`);
      blockIds.add(id);
    }
    if (block['type'] !== 'input') {
      others.push(block);
      return;
    }
    text(block['label'], VIEW.label, `${at}/label`);
    text(block['hint'], VIEW.hint, `${at}/hint`, false);
    const element = block['element'] as Record<string, unknown> | undefined;
    const type = String(element?.['type']);
    if (element === undefined || !INPUT_ELEMENTS.has(type)) {
      problems.push(`unsupported input element ${type} [json-pointer:${at}/element/type]`);
      return;
    }
    maxString(element['action_id'], VIEW.actionId, `${at}/element/action_id`);
    if (element['placeholder'] !== undefined)
      text(element['placeholder'], VIEW.placeholder, `${at}/element/placeholder`);
    const maxLength = element['max_length'];
    if (
      maxLength !== undefined &&
      (typeof maxLength !== 'number' || maxLength < 1 || maxLength > VIEW.plainTextInputMax)
    )
      problems.push(`max_length must be 1-${VIEW.plainTextInputMax} [json-pointer:${at}/element/max_length]`);
    const options = element['options'];
    if (type === 'static_select' || type === 'checkboxes') {
      const most = type === 'checkboxes' ? VIEW.checkboxOptions : VIEW.selectOptions;
      if (!Array.isArray(options) || options.length < 1 || options.length > most) {
        problems.push(`must have 1-${most} options [json-pointer:${at}/element/options]`);
        return;
      }
      options.forEach((option: Record<string, unknown>, i) => {
        text(option['text'], VIEW.optionText, `${at}/element/options/${i}/text`);
        maxString(option['value'], VIEW.optionValue, `${at}/element/options/${i}/value`);
      });
    }
  });
  // Non-input blocks follow the message rules (section, context, …).
  problems.push(
    ...blockKitViolations(others).map((p) =>
      p.replace('[json-pointer:/blocks', '[json-pointer:/view/blocks'),
    ),
  );
  if (blocks.some((b) => (b as { type?: unknown }).type === 'input') && v['submit'] === undefined)
    problems.push('a view with input blocks must have a submit button [json-pointer:/view/submit]');
  return problems;
}

export interface SubmitOptions {
  signedAt?: number;
  userId?: string;
  teamId?: string;
  edit?: (payload: Record<string, unknown>) => void;
}

/**
 * The fake Slack's views.open and chat.postEphemeral, and the signed `view_submission` Slack
 * sends when someone submits a modal. Hooked into FakeSlackApi's method table; kept apart so the
 * modal surface reads as one piece.
 */
export class FakeSlackViews {
  readonly opened: OpenedView[] = [];
  readonly ephemeral: EphemeralPost[] = [];
  private readonly triggers = new Map<string, { at: number; userId: string }>();
  private readonly viewParams = operationParameters('/views.open');
  private readonly ephemeralParams = operationParameters('/chat.postEphemeral');
  private seq = 0;

  constructor(
    private readonly now: () => number,
    private readonly violations: string[],
  ) {}

  /** A trigger id as Slack puts in a slash command or interaction for `userId`, valid 3 s from now. */
  trigger(userId = 'U1'): string {
    this.seq += 1;
    const id = `${this.seq}.1000.${'f'.repeat(8)}`;
    this.triggers.set(id, { at: this.now(), userId });
    return id;
  }

  /** The method's answer, or undefined when it is not one of these. */
  answer(method: string, teamId: string, params: Record<string, unknown>): Answer | undefined {
    if (method === 'views.open') return this.open(teamId, params);
    if (method === 'chat.postEphemeral') return this.postEphemeral(params);
    return undefined;
  }

  private unknownParams(
    method: string,
    allowed: Set<string>,
    params: Record<string, unknown>,
  ): Answer | undefined {
    for (const name of Object.keys(params)) {
      // Bolt's per-request client adds the workspace's team_id to every call (for org-wide apps);
      // the 2021 spec predates it, and Slack accepts it on every method.
      if (!allowed.has(name) && name !== 'team_id') {
        this.violations.push(`${method}: parameter ${name} is not in the OpenAPI spec`);
        return { status: 200, body: { ok: false, error: 'invalid_arg_name' } };
      }
    }
    return undefined;
  }

  private open(teamId: string, params: Record<string, unknown>): Answer {
    const unknown = this.unknownParams('views.open', this.viewParams, params);
    if (unknown) return unknown;
    const trigger = this.triggers.get(String(params['trigger_id']));
    if (trigger === undefined) return { status: 200, body: { ok: false, error: 'invalid_trigger_id' } };
    if (this.now() - trigger.at > TRIGGER_LIFETIME_MS)
      return { status: 200, body: { ok: false, error: 'expired_trigger_id' } };
    // A trigger opens one view.
    this.triggers.delete(String(params['trigger_id']));
    const problems = viewViolations(params['view']);
    if (problems.length > 0) {
      this.violations.push(...problems.map((p) => `views.open: ${p}`));
      return {
        status: 200,
        body: { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } },
      };
    }
    const view = params['view'] as Record<string, unknown>;
    const id = `V${String(this.opened.length + 1).padStart(8, '0')}`;
    this.opened.push({ id, teamId, userId: trigger.userId, view });
    return { status: 200, body: { ok: true, view: { id, team_id: teamId, ...view, state: { values: {} } } } };
  }

  private postEphemeral(params: Record<string, unknown>): Answer {
    const unknown = this.unknownParams('chat.postEphemeral', this.ephemeralParams, params);
    if (unknown) return unknown;
    if (params['link_names'] !== undefined && String(params['link_names']) !== 'false')
      this.violations.push('chat.postEphemeral: link_names must not be set');
    if (typeof params['user'] !== 'string')
      return { status: 200, body: { ok: false, error: 'user_not_in_channel' } };
    if (params['blocks'] !== undefined) {
      const problems = blockKitViolations(params['blocks']);
      if (problems.length > 0) {
        this.violations.push(...problems.map((p) => `chat.postEphemeral: ${p}`));
        return { status: 200, body: { ok: false, error: 'invalid_blocks' } };
      }
    }
    this.ephemeral.push({
      channel: String(params['channel']),
      user: params['user'],
      text: typeof params['text'] === 'string' ? params['text'] : undefined,
      blocks: params['blocks'],
    });
    return { status: 200, body: { ok: true, message_ts: `${Math.floor(this.now() / 1000)}.000100` } };
  }

  /**
   * Someone submits an opened modal: Slack POSTs a signed `view_submission` to the app's request
   * URL, its `view.state.values` filled from `values` (by block id: text, a chosen option's value,
   * or `true` for a ticked box). `signedAt` (seconds) and `secret` let a test forge or replay it.
   */
  submit(
    botUrl: string,
    secret: string,
    opened: OpenedView,
    values: Record<string, string | boolean>,
    options: SubmitOptions = {},
  ): Promise<Response> {
    return fetch(botUrl, this.submission(secret, opened, values, options));
  }

  /** The signed request `submit` sends, for a test that sends the very same one again. */
  submission(
    secret: string,
    opened: OpenedView,
    values: Record<string, string | boolean>,
    options: SubmitOptions = {},
  ): { method: 'POST'; body: string; headers: Record<string, string> } {
    const blocks = (opened.view['blocks'] ?? []) as {
      block_id?: string;
      element?: { type?: string; action_id?: string };
    }[];
    const state: Record<string, Record<string, unknown>> = {};
    for (const block of blocks) {
      const element = block.element;
      if (block.block_id === undefined || element?.action_id === undefined) continue;
      const value = values[block.block_id];
      let entry: Record<string, unknown>;
      if (element.type === 'checkboxes') {
        entry = {
          type: 'checkboxes',
          selected_options:
            value === true ? [{ value: 'true', text: { type: 'plain_text', text: 'Yes' } }] : [],
        };
      } else if (element.type === 'static_select') {
        entry = {
          type: 'static_select',
          selected_option:
            typeof value === 'string' ? { value, text: { type: 'plain_text', text: value } } : null,
        };
      } else entry = { type: element.type, value: typeof value === 'string' ? value : null };
      state[block.block_id] = { [element.action_id]: entry };
    }
    const teamId = options.teamId ?? opened.teamId;
    const userId = options.userId ?? opened.userId ?? 'U1';
    const payload: Record<string, unknown> = {
      type: 'view_submission',
      team: { id: teamId, domain: 'fake' },
      user: { id: userId, username: 'alice', name: 'alice', team_id: teamId },
      api_app_id: 'A1',
      token: 'legacy',
      trigger_id: this.trigger(userId),
      view: {
        ...opened.view,
        id: opened.id,
        team_id: teamId,
        state: { values: state },
        hash: '1.abc',
        app_id: 'A1',
        bot_id: `B${teamId}`,
      },
      response_urls: [],
      is_enterprise_install: false,
    };
    options.edit?.(payload);
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const signedAt = options.signedAt ?? Math.floor(this.now() / 1000);
    return { method: 'POST', body, headers: signedHeaders(secret, body, signedAt) };
  }
}
