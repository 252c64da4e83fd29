import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import { createMetrics } from '../../src/observability/metrics.js';

describe('the HTTP server', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function start(checkTimeoutMs?: number) {
    const metrics = createMetrics();
    const http = createHttpServer({
      logger: createSilentLogger(),
      registry: metrics.registry,
      ...(checkTimeoutMs === undefined ? {} : { checkTimeoutMs }),
    });
    servers.push(http);
    const port = await http.listen(0, '127.0.0.1');
    return { http, metrics, base: `http://127.0.0.1:${port}` };
  }

  it('answers /healthz with 200 while running', async () => {
    const { base } = await start();
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok\n');
  });

  it('answers /readyz with 503 and the failing check, then 200 once it passes', async () => {
    const { http, base } = await start();
    let storeUp = false;
    http.addReadinessCheck({
      name: 'store',
      check: async () => (storeUp ? undefined : 'redis is unreachable'),
    });
    const down = await fetch(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      ready: false,
      degraded: false,
      checks: { store: 'redis is unreachable' },
      degradations: {},
    });
    storeUp = true;
    const up = await fetch(`${base}/readyz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({
      ready: true,
      degraded: false,
      checks: { store: 'ok' },
      degradations: {},
    });
  });

  it('answers /readyz in bounded time when a check hangs (a store that stopped answering): 503, saying so', async () => {
    const { http, base } = await start(200);
    http.addReadinessCheck({ name: 'adapters', check: async () => undefined });
    http.addReadinessCheck({ name: 'store', check: () => new Promise<undefined>(() => {}) });
    http.addDegradationCheck({ name: 'directory', check: () => new Promise<undefined>(() => {}) });
    const answer = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(10_000) });
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      ready: false,
      degraded: true,
      checks: { adapters: 'ok', store: 'no answer within 200 ms' },
      degradations: { directory: 'no answer within 200 ms' },
    });
  });

  it('stays ready while degraded, says why in the body, and answers 503 to ?strict', async () => {
    const { http, base } = await start();
    let problem: string | undefined = 'the directory refused DIRECTORY_TOKEN';
    http.addReadinessCheck({ name: 'store', check: async () => undefined });
    http.addDegradationCheck({ name: 'directory', check: async () => problem });
    const degraded = await fetch(`${base}/readyz`);
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toEqual({
      ready: true,
      degraded: true,
      checks: { store: 'ok' },
      degradations: { directory: 'the directory refused DIRECTORY_TOKEN' },
    });
    expect((await fetch(`${base}/readyz?strict`)).status).toBe(503);
    problem = undefined;
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ ready: true, degraded: false });
    expect((await fetch(`${base}/readyz?strict`)).status).toBe(200);
  });

  it('treats a readiness check that throws as not ready', async () => {
    const { http, base } = await start();
    http.addReadinessCheck({
      name: 'slack',
      check: async () => {
        throw new Error('socket closed');
      },
    });
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ checks: { slack: 'socket closed' } });
  });

  it('serves Prometheus metrics including process metrics and the bot counters', async () => {
    const { metrics, base } = await start();
    metrics.deliveries.inc({ platform: 'slack', outcome: 'delivered' });
    const response = await fetch(`${base}/metrics`);
    const text = await response.text();
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('directory_bot_deliveries_total{platform="slack",outcome="delivered"} 1');
  });

  it('routes a mounted prefix to its adapter handler and 404s the rest', async () => {
    const { http, base } = await start();
    http.mount('/slack/', (_req, res) => {
      res.writeHead(200).end('slack here');
    });
    expect(await (await fetch(`${base}/slack/events`, { method: 'POST' })).text()).toBe('slack here');
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
  });
});
