import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake webhook received, and what it answered. */
export interface WebhookCall {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The body as sent (what a signature covers). */
  raw: string;
  /** The body parsed as JSON, or undefined when it was not JSON. */
  body: unknown;
  headers: IncomingHttpHeaders;
  status: number;
  /** When the fake answered, on its clock. */
  at: number;
}

export interface FakeAnswer {
  status: number;
  /** An object is sent as JSON, a string as text. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  raw: string;
  body: unknown;
  headers: IncomingHttpHeaders;
  now: number;
}

/**
 * A fake webhook receiver on 127.0.0.1: every request is recorded with the answer given, and
 * `problems` collects every way a request broke the platform's published schema or limits (a
 * test asserts it stays empty). Subclasses route and answer like their platform.
 */
export abstract class FakeWebhookServer {
  readonly calls: WebhookCall[] = [];
  readonly problems: string[] = [];
  readonly #server: Server;
  readonly now: () => number;
  #url = '';

  constructor(now: () => number = Date.now) {
    this.now = now;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = raw === '' ? undefined : JSON.parse(raw);
        } catch {
          body = undefined;
        }
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const request: FakeRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          raw,
          body,
          headers: req.headers,
          now: this.now(),
        };
        let answer: FakeAnswer;
        try {
          answer = this.answer(request);
        } catch (error) {
          this.problems.push(`the fake failed: ${String(error)}`);
          answer = { status: 500, body: 'fake error' };
        }
        this.calls.push({ ...request, status: answer.status, at: request.now });
        send(res, answer);
      });
    });
  }

  /** The base URL, `http://127.0.0.1:<port>`. */
  get url(): string {
    return this.#url;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Calls answered with a 2xx. */
  delivered(): WebhookCall[] {
    return this.calls.filter((call) => call.status >= 200 && call.status < 300);
  }

  protected abstract answer(request: FakeRequest): FakeAnswer;
}

function send(res: ServerResponse, answer: FakeAnswer): void {
  const json = answer.body !== undefined && typeof answer.body !== 'string';
  const text = answer.body === undefined ? '' : json ? JSON.stringify(answer.body) : String(answer.body);
  res.writeHead(answer.status, {
    'content-type': json ? 'application/json' : 'text/plain',
    ...answer.headers,
  });
  res.end(text);
}

/**
 * Counts requests in fixed windows aligned to the clock (`[k·window, (k+1)·window)`), as Teams'
 * "fixed-rate window" and Discord's buckets count them: `take` answers whether one more fits.
 */
export class FixedWindows {
  readonly #counts = new Map<string, { window: number; count: number }>();

  take(
    key: string,
    limit: number,
    windowMs: number,
    now: number,
  ): { ok: boolean; remaining: number; resetAfterMs: number } {
    const window = Math.floor(now / windowMs);
    const state = this.#counts.get(key);
    const current = state?.window === window ? state : { window, count: 0 };
    const resetAfterMs = (window + 1) * windowMs - now;
    if (current.count >= limit) return { ok: false, remaining: 0, resetAfterMs };
    current.count += 1;
    this.#counts.set(key, current);
    return { ok: true, remaining: limit - current.count, resetAfterMs };
  }
}
