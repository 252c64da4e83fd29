import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryClient, DEFAULT_USER_AGENT } from '../../src/directory/index.js';
import { isBotError } from '../../src/errors.js';

/**
 * A capture server: records what the client sends and answers with a canned body. Enough to
 * pin down the wire format the emulator does not expose (headers, request bodies).
 */
describe('what the client puts on the wire', () => {
  let server: Server;
  let baseUrl: string;
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let answer: { status: number; headers: Record<string, string>; body: string } = {
    status: 200,
    headers: {},
    body: '{}',
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(answer.status, {
          'content-type': 'application/json; charset=utf-8',
          ...answer.headers,
        });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the Bearer token, a User-Agent naming the bot, JSON accept and the V1 query', async () => {
    answer = { status: 200, headers: { etag: '"abc"' }, body: '{"comments":[]}' };
    const client = createDirectoryClient({ baseUrl, token: 't0k3n' });
    await client.listComments({ newer: 10, perPage: 50, postId: 7 });
    const request = seen.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/api/v1/comments?newer=10&per_page=50&search%5Bpost_id%5D=7');
    expect(request.headers['authorization']).toBe('Bearer t0k3n');
    expect(request.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
    expect(request.headers['user-agent']).toMatch(/^directory-bot\/\d+\.\d+\.\d+/);
    expect(request.headers['accept']).toBe('application/json');

    await client.listComments({ newer: 10, perPage: 50, postId: 7 });
    expect(seen.at(-1)!.headers['if-none-match']).toBe('"abc"');
    await client.close();
  });

  it('posts GraphQL as JSON with variables, leaving out undefined ones', async () => {
    answer = {
      status: 200,
      headers: {},
      body: JSON.stringify({
        data: { posts: { edges: [], pageInfo: { endCursor: null, hasNextPage: false } } },
      }),
    };
    const client = createDirectoryClient({ baseUrl, token: 't', userAgent: 'directory-bot/9.9.9 test' });
    const page = await client.listPosts({ first: 5, order: 'NEWEST' });
    expect(page).toEqual({ nodes: [], pageInfo: { endCursor: null, hasNextPage: false }, skipped: 0 });
    const request = seen.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v2/api/graphql');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('directory-bot/9.9.9 test');
    const body = JSON.parse(request.body) as { query: string; variables: Record<string, unknown> };
    expect(body.variables).toEqual({ first: 5, order: 'NEWEST' });
    expect(body.query).toContain('posts(first: $first');
    await client.close();
  });

  it('sends DELETE /v1/notifications with an empty JSON object', async () => {
    answer = { status: 200, headers: {}, body: '{"notifications":[]}' };
    const client = createDirectoryClient({ baseUrl, token: 't' });
    await client.clearNotifications();
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/v1/notifications', body: '{}' });
    await client.close();
  });

  it('rejects an envelope that is not the documented shape', async () => {
    answer = { status: 200, headers: {}, body: '{"comment":[]}' };
    const client = createDirectoryClient({ baseUrl, token: 't' });
    const error = await client.listComments().catch((e: unknown) => e);
    expect(isBotError(error, 'upstream_bad_response')).toBe(true);
    answer = { status: 200, headers: {}, body: '{"data":{"posts":{"edges":"nope"}}}' };
    const v2 = await client.listPosts({ first: 1 }).catch((e: unknown) => e);
    expect(isBotError(v2, 'upstream_bad_response')).toBe(true);
    await client.close();
  });

  it('treats a 200 HTML page as unavailable rather than a parse crash', async () => {
    answer = { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html></html>' };
    const client = createDirectoryClient({
      baseUrl,
      token: 't',
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await client.listLiveEvents().catch((e: unknown) => e);
    expect(isBotError(error, 'upstream_unavailable')).toBe(true);
    await client.close();
  });
});
