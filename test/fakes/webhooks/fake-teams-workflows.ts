import { randomBytes } from 'node:crypto';
import { adaptiveCardProblems } from './adaptive-card-schema.js';
import { type FakeAnswer, type FakeRequest, FakeWebhookServer, FixedWindows } from './webhook-server.js';

/** "approximately 28 KB" (the Teams connector's post actions): the fake answers 413 above 28 KiB. */
export const TEAMS_BODY_MAX_BYTES = 28 * 1024;

/**
 * Teams' limits as the fake enforces them (docs/webhooks.md gives the sources): per webhook 4 a
 * second and 60 in 30 seconds (what Teams allows a connector or webhook in a channel) and 1,800 an
 * hour (a bot's posts in one conversation); per tenant 50 a second (the Workflows bot's limit per
 * app per tenant). Fixed windows, as Teams counts them.
 */
export const TEAMS_FAKE_LIMITS = {
  perWebhook: [
    { limit: 4, windowMs: 1_000 },
    { limit: 60, windowMs: 30_000 },
    { limit: 1_800, windowMs: 3_600_000 },
  ],
  perTenant: { limit: 50, windowMs: 1_000 },
} as const;

interface Flow {
  id: string;
  sig: string;
  on: boolean;
}

/** A card the fake accepted, and whom it mentions. */
export interface TeamsPost {
  flow: string;
  card: Record<string, unknown>;
  /** `user:<id>` / `tag:<id>` of mention entities whose `<at>` text appears in the card. */
  pinged: string[];
}

/**
 * A fake Power Automate "When a Teams webhook request is received" trigger (the Workflows
 * template "Post to a channel when a webhook request is received"): `POST
 * /workflows/<id>/triggers/manual/paths/invoke?…&sig=…` answers 202, the body must be a message
 * whose first attachment is an Adaptive Card valid against the published schema, at most 28 KiB,
 * and Teams' rate limits are enforced with 429 and Retry-After.
 */
export class FakeTeamsWorkflows extends FakeWebhookServer {
  readonly posts: TeamsPost[] = [];
  readonly #flows = new Map<string, Flow>();
  readonly #windows = new FixedWindows();

  addWebhook(): { url: string; id: string } {
    const flow: Flow = {
      id: randomBytes(16).toString('hex'),
      sig: randomBytes(16).toString('base64url'),
      on: true,
    };
    this.#flows.set(flow.id, flow);
    const query = `api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${flow.sig}`;
    return { url: `${this.url}/workflows/${flow.id}/triggers/manual/paths/invoke?${query}`, id: flow.id };
  }

  /** The workflow was turned off or deleted: 404 from now on. */
  turnOff(id: string): void {
    const flow = this.#flows.get(id);
    if (flow) flow.on = false;
  }

  protected answer(request: FakeRequest): FakeAnswer {
    const match = /^\/workflows\/([0-9a-f]{32})\/triggers\/manual\/paths\/invoke\/?$/.exec(request.path);
    const flow = match ? this.#flows.get(match[1] ?? '') : undefined;
    if (flow === undefined || !flow.on) {
      return {
        status: 404,
        body: { error: { code: 'WorkflowNotFound', message: 'The workflow could not be found.' } },
      };
    }
    if (request.query.get('sig') !== flow.sig) {
      return {
        status: 401,
        body: { error: { code: 'DirectApiAuthorizationRequired', message: 'The request must be signed.' } },
      };
    }
    const tenant = TEAMS_FAKE_LIMITS.perTenant;
    for (const [key, limit] of [
      ['tenant', tenant] as const,
      ...TEAMS_FAKE_LIMITS.perWebhook.map((l) => [`flow:${flow.id}:${l.windowMs}`, l] as const),
    ]) {
      const window = this.#windows.take(key, limit.limit, limit.windowMs, request.now);
      if (!window.ok) {
        this.problems.push(`${key} over ${limit.limit} per ${limit.windowMs} ms`);
        return {
          status: 429,
          body: { error: { code: 'WorkflowTriggerIsThrottled', message: 'Rate limit is exceeded.' } },
          headers: { 'retry-after': String(Math.ceil(window.resetAfterMs / 1000)) },
        };
      }
    }
    if (Buffer.byteLength(request.raw) > TEAMS_BODY_MAX_BYTES) {
      this.problems.push(`a body of ${Buffer.byteLength(request.raw)} bytes`);
      return {
        status: 413,
        body: { error: { code: 'RequestEntityTooLarge', message: 'Request Entity too large' } },
      };
    }
    const problems = messageProblems(request.body);
    if (problems.length > 0) {
      this.problems.push(...problems);
      return {
        status: 400,
        body: { error: { code: 'InvalidRequestContent', message: problems.join('; ') } },
      };
    }
    const card =
      (request.body as { attachments: { content: Record<string, unknown> }[] }).attachments[0]?.content ?? {};
    this.posts.push({ flow: flow.id, card, pinged: teamsPings(card) });
    return { status: 202 };
  }
}

/** What the template's trigger and "Post card in a chat or channel" action need of the body. */
function messageProblems(body: unknown): string[] {
  const message = body as { type?: unknown; attachments?: unknown } | undefined;
  if (message === undefined || message.type !== 'message') return ['the body is not {"type": "message", …}'];
  if (!Array.isArray(message.attachments) || message.attachments.length === 0) return ['no attachments'];
  const attachment = message.attachments[0] as { contentType?: unknown; content?: unknown };
  if (attachment.contentType !== 'application/vnd.microsoft.card.adaptive') {
    return [`attachment contentType ${String(attachment.contentType)}`];
  }
  const problems = adaptiveCardProblems(attachment.content);
  const card = attachment.content as {
    msteams?: { entities?: { type?: string; text?: string; mentioned?: { id?: string; name?: string } }[] };
  };
  const texts = textsOf(attachment.content).join('\n');
  for (const entity of card.msteams?.entities ?? []) {
    if (entity.type !== 'mention' || !entity.text || !entity.mentioned?.id || !entity.mentioned.name) {
      problems.push('a mention entity needs type, text and mentioned.id and .name');
    } else if (!texts.includes(entity.text)) problems.push(`mention ${entity.text} appears in no text`);
  }
  for (const [tag] of texts.matchAll(/<at>[^<]*<\/at>/g)) {
    if (!(card.msteams?.entities ?? []).some((e) => e.text === tag))
      problems.push(`${tag} without a mention entity`);
  }
  return problems;
}

function textsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const own = typeof record['text'] === 'string' && record['type'] === 'TextBlock' ? [record['text']] : [];
  return [
    ...own,
    ...Object.entries(record)
      .filter(([key]) => key !== 'msteams')
      .flatMap(([, v]) => textsOf(v)),
  ];
}

function teamsPings(card: Record<string, unknown>): string[] {
  const entities =
    (card['msteams'] as { entities?: { text: string; mentioned: { id: string; type?: string } }[] })
      ?.entities ?? [];
  const texts = textsOf(card).join('\n');
  return entities
    .filter((e) => texts.includes(e.text))
    .map((e) => `${e.mentioned.type === 'tag' ? 'tag' : 'user'}:${e.mentioned.id}`);
}
