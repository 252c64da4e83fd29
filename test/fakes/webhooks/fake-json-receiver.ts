import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { type FakeAnswer, type FakeRequest, FakeWebhookServer } from './webhook-server.js';

/** The documented payload schema, read from docs/ as a receiver's author would read it. */
const SCHEMA_URL = new URL('../../../docs/webhook-payload.v1.schema.json', import.meta.url);
let compiled: ValidateFunction | undefined;

/** Problems of `payload` against docs/webhook-payload.v1.schema.json; empty when it is valid. */
export function payloadSchemaProblems(payload: unknown): string[] {
  compiled ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(
    JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object,
  );
  if (compiled(payload)) return [];
  return (compiled.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

/**
 * How a receiver checks a request, written from docs/webhooks.md alone (not the bot's code):
 * HMAC-SHA256 under the shared secret of `<X-Directory-Bot-Timestamp>.<raw body>`, hex, after
 * `v1=`, compared in constant time; a timestamp more than five minutes off is refused.
 */
export function verifySignature(
  secret: string,
  request: Pick<FakeRequest, 'headers' | 'raw' | 'now'>,
): string | undefined {
  const timestamp = String(request.headers['x-directory-bot-timestamp'] ?? '');
  const signature = String(request.headers['x-directory-bot-signature'] ?? '');
  if (!/^\d+$/.test(timestamp)) return 'no timestamp';
  if (Math.abs(request.now / 1000 - Number(timestamp)) > 300) return 'stale timestamp';
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.raw}`).digest('hex')}`;
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? undefined : 'bad signature';
}

/**
 * A receiver of the generic JSON webhook on 127.0.0.1: it verifies every signature, validates every
 * payload against the documented schema, and answers as told (`failNext`): 2xx by default, or a
 * 5xx, 429 or 4xx to see the bot retry, wait or pause.
 */
export class FakeJsonReceiver extends FakeWebhookServer {
  readonly received: { delivery: string; event: string; payload: Record<string, unknown> }[] = [];
  readonly #secret: string;
  readonly #answers: FakeAnswer[] = [];

  constructor(secret: string, now?: () => number) {
    super(now);
    this.#secret = secret;
  }

  get hookUrl(): string {
    return `${this.url}/hooks/directory`;
  }

  /** The next requests are answered these ways, in order (then 200 again). */
  failNext(...answers: FakeAnswer[]): void {
    this.#answers.push(...answers);
  }

  /** Deliveries received more than once (a receiver would have to deduplicate them). */
  repeated(): string[] {
    const seen = new Map<string, number>();
    for (const r of this.received) seen.set(r.delivery, (seen.get(r.delivery) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([delivery]) => delivery);
  }

  protected answer(request: FakeRequest): FakeAnswer {
    if (request.method !== 'POST' || request.path !== '/hooks/directory')
      return { status: 404, body: 'not found' };
    const refused = verifySignature(this.#secret, request);
    if (refused !== undefined) {
      this.problems.push(refused);
      return { status: 401, body: refused };
    }
    const problems = payloadSchemaProblems(request.body);
    if (problems.length > 0) {
      this.problems.push(...problems);
      return { status: 422, body: problems.join('; ') };
    }
    const payload = request.body as Record<string, unknown>;
    if (payload['delivery'] !== request.headers['x-directory-bot-delivery'])
      this.problems.push('delivery header differs');
    if (payload['event'] !== request.headers['x-directory-bot-event'])
      this.problems.push('event header differs');
    const scripted = this.#answers.shift();
    if (scripted !== undefined) return scripted;
    this.received.push({ delivery: String(payload['delivery']), event: String(payload['event']), payload });
    return { status: 204 };
  }
}
