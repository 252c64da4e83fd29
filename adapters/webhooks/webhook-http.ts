import { Agent, type Dispatcher, errors } from 'undici';
import type {
  WebhookClient,
  WebhookFailure,
  WebhookRequest,
  WebhookResponse,
} from '../../src/ports/index.js';
import { messageOf } from '../../src/ports/index.js';

export interface WebhookHttpOptions {
  userAgent: string;
  /** Until the answer's headers arrive, and between two chunks of its body (default 10 s). */
  timeoutMs?: number;
  /** The connection pool; default an Agent of its own, closed by `close`. */
  dispatcher?: Dispatcher;
}

/** The most of an answer's body read: an error page is enough to say what went wrong. */
const BODY_MAX = 64 * 1024;

/**
 * The HTTP side of every webhook kind: one request, never repeated here (the outbox decides what
 * is retried, after asking its ledger), no redirects followed (a webhook URL that moved is a
 * webhook to fix), and errors as values. Nothing here logs or returns the URL: it is the
 * webhook's credential.
 */
export class WebhookHttp implements WebhookClient {
  readonly #dispatcher: Dispatcher;
  readonly #owned: boolean;
  readonly #userAgent: string;
  readonly #timeoutMs: number;

  constructor(options: WebhookHttpOptions) {
    this.#owned = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connect: { timeout: 10_000 } });
    this.#userAgent = options.userAgent;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(request: WebhookRequest): Promise<WebhookResponse | WebhookFailure> {
    let sent = false;
    try {
      const response = await this.#dispatcher.request({
        origin: new URL(request.url).origin,
        path: pathOf(request.url),
        method: request.method,
        headers: {
          'user-agent': this.#userAgent,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        ...(request.body === undefined ? {} : { body: request.body }),
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      sent = true;
      const body = await readBounded(response.body);
      return { status: response.statusCode, headers: response.headers, body };
    } catch (error) {
      // No connection at all: the request never left. Anything later may have been received.
      const refused =
        !sent &&
        (error instanceof errors.ConnectTimeoutError ||
          (error as { code?: string }).code === 'ECONNREFUSED' ||
          (error as { code?: string }).code === 'ENOTFOUND' ||
          (error as { code?: string }).code === 'EAI_AGAIN');
      return { failure: describe(error), sent: !refused };
    }
  }

  async close(): Promise<void> {
    if (this.#owned) await this.#dispatcher.close();
  }
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function readBounded(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk as Uint8Array);
    if (length < BODY_MAX) chunks.push(buffer.subarray(0, BODY_MAX - length));
    length += buffer.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What went wrong, without the URL (an error message may quote it). */
function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const text = messageOf(error).replace(/https?:\/\/\S+/g, '<webhook URL>');
  return typeof code === 'string' ? `${code}: ${text}` : text;
}
