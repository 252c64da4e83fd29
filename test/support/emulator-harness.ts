import { request } from 'undici';
import { afterEach } from 'vitest';
import {
  createManualClock,
  type EmulatorOptions,
  type ManualClock,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';

export const TOKEN = 'dev-token';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect payloads ad hoc; the shapes are asserted, not typed.
  json: () => any;
}

export interface Harness {
  emulator: RunningEmulator;
  clock: ManualClock;
  get(path: string, options?: { token?: string | null; headers?: Record<string, string> }): Promise<Reply>;
  call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply>;
  graphql(query: string, variables?: Record<string, unknown>, token?: string): Promise<Reply>;
  admin(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Reply>;
}

const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** Starts an emulator on port 0 with a manual clock; it is closed after the test. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const clock = createManualClock();
  const emulator = await startEmulator({ clock, ...options });
  running.push(emulator);
  const call: Harness['call'] = async (method, path, opts = {}) => {
    const token = opts.token === undefined ? TOKEN : opts.token;
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const response = await request(`${emulator.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.body.text();
    const flat: Record<string, string> = {};
    for (const [key, value] of Object.entries(response.headers)) {
      if (typeof value === 'string') flat[key] = value;
      else if (Array.isArray(value)) flat[key] = value.join(', ');
    }
    return { status: response.statusCode, headers: flat, text, json: () => JSON.parse(text) };
  };
  return {
    emulator,
    clock: (options.clock as ManualClock | undefined) ?? clock,
    call,
    get: (path, opts) => call('GET', path, opts),
    graphql: (query, variables, token) =>
      call('POST', '/v2/api/graphql', {
        body: variables ? { query, variables } : { query },
        ...(token ? { token } : {}),
      }),
    admin: (method, path, body) =>
      call(method, `/__admin${path}`, { token: null, ...(body === undefined ? {} : { body }) }),
  };
}
