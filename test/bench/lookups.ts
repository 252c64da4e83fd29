import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { Registry } from 'prom-client';
import { Agent, request } from 'undici';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import { createStore } from '../../src/store/create-store.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import { newTriggerId } from '../fakes/slack/trigger-id.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { type ButtonClickResult, benchButtonClicks } from './button-clicks.js';
import { createBenchCommandHandler } from './command-handler.js';
import { benchModalSubmits, type ModalSubmitResult } from './modal-submit.js';
import { benchEngineParts, type LatencyVersus, round, silentLogger, type Violation } from './support.js';
import { alternateBotAndBare } from './versus-bare.js';

export interface LookupsOptions {
  /** Measured commands per app (each app gets the same number, interleaved). */
  requests: number;
  /** Commands per app sent first and not measured (connection set-up, JIT, Bolt's first auth.test). */
  warmup: number;
}

export interface LookupsResult extends LatencyVersus {
  requests: number;
  /** Commands answered within the ack (not "Working on it…" then response_url). */
  answeredInAck: number;
  /** Commands acked with "Working on it…" because the core took longer than the ack budget. */
  deferred: number;
  /** Emulator requests per second this benchmark needed. */
  upstreamRequestsPerSecond: number;
  /** Subscribe-form submissions (view_submission) → ack, against the same bare Bolt app. */
  modalSubmit: ModalSubmitResult;
  /** Message button clicks ("Comments") → ack, against the same bare Bolt app. */
  buttons: ButtonClickResult;
  violations: Violation[];
}

const SECRET = 'bench-signing-secret-0123456789ab';
const TOKEN = 'xoxb-bench';
const QUOTA = 1_000_000_000;
const BENCH_USER = 'U1000000';

/**
 * `/directory post <id>` commands POSTed with real Slack signatures to the bot's own HTTP
 * server, where the real Slack adapter (Bolt's HTTPReceiver) hands them to the real command
 * handler, which looks each post up in the emulator before acking with the answer. The
 * baseline is a bare Bolt app (HTTPReceiver + a listener that acks at once) mounted on the
 * same kind of server. Requests alternate between the two, one at a time, so drift and noise
 * from other processes fall on both alike. Every post id is distinct: each lookup misses the
 * cache and goes upstream (the worst case for the ack).
 */
export async function benchLookups(options: LookupsOptions): Promise<LookupsResult> {
  const temp = makeTempDir('directory-bot-bench-');
  const logger = silentLogger();
  const emulator = await startEmulator({
    seed: 7,
    quotaV1: QUOTA,
    quotaV2Requests: QUOTA,
    quotaComplexity: QUOTA,
  });
  const slack = await new FakeSlackApi().start();
  slack.addToken(TOKEN, 'T1');
  // The form submissions need someone who may subscribe the channel.
  slack.addUser(BENCH_USER, { is_admin: true });
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  const store = createStore({ url: `sqlite://${join(temp.path, 'lookups.sqlite')}`, namespace: 'bench' });
  const parts = benchEngineParts(emulator.url);
  const { directoryId } = parts;
  // Never started, like `directory-bot lookup`'s: it only answers commands.
  const engine = createEngine({
    store,
    client,
    adapters: [],
    ...parts,
    settings: TEST_SETTINGS,
  });

  const botServer = createHttpServer({ logger, registry: new Registry() });
  const adapter = createSlackAdapter({
    botToken: TOKEN,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    logger,
  });
  const bareServer = createHttpServer({ logger, registry: new Registry() });
  const receiver = new HTTPReceiver({
    signingSecret: SECRET,
    endpoints: ['/slack/events'],
    logLevel: LogLevel.ERROR,
  });
  const bare = new App({
    receiver,
    token: TOKEN,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: slack.apiUrl },
  });
  bare.command('/directory', async ({ ack }) => {
    await ack();
  });
  bare.view(/^dirbot:v\d+:form$/, async ({ ack }) => {
    await ack();
  });
  bare.action(/^dirbot:/, async ({ ack }) => {
    await ack();
  });
  bareServer.mount('/slack/', (req, res) => receiver.requestListener(req, res));
  const agent = new Agent({ connections: 2 });

  try {
    await adapter.start({
      http: botServer,
      commands: createBenchCommandHandler({ client, engine, store, directoryId }),
      logger,
    });
    const botUrl = `http://127.0.0.1:${await botServer.listen(0, '127.0.0.1')}/slack/events`;
    const bareUrl = `http://127.0.0.1:${await bareServer.listen(0, '127.0.0.1')}/slack/events`;

    // One distinct post per command, so no lookup is served from the cache.
    const needed = options.requests + options.warmup;
    while (emulator.admin.counts().posts < needed) emulator.admin.addPost({});
    const firstId = emulator.admin.latestPostId() - needed + 1;

    const violations: Violation[] = [];
    let answeredInAck = 0;
    let deferred = 0;
    const send = async (url: string, text: string, measured: boolean): Promise<number> => {
      const body = new URLSearchParams({
        token: 'legacy',
        team_id: 'T1',
        team_domain: 'bench',
        channel_id: 'C1000000',
        channel_name: 'general',
        user_id: BENCH_USER,
        user_name: 'bench',
        command: '/directory',
        text,
        api_app_id: 'A1',
        is_enterprise_install: 'false',
        response_url: slack.responseUrl(),
        trigger_id: newTriggerId(),
      }).toString();
      const headers = signedHeaders(SECRET, body, Math.floor(Date.now() / 1000));
      const started = performance.now();
      const response = await request(url, { method: 'POST', body, headers, dispatcher: agent });
      const answer = await response.body.text();
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) {
        violations.push({
          benchmark: 'lookups',
          problem: `${url} answered ${response.statusCode} to "${text}"`,
        });
      }
      // The adapter acks with the answer itself when the core replies within its budget, else with
      // "Working on it…" (slow, not broken); anything else means the lookup went wrong.
      const inAck = answer.includes('Post:');
      if (url === botUrl && response.statusCode === 200 && !inAck) {
        if (answer.includes('Working on it')) deferred += 1;
        else
          violations.push({
            benchmark: 'lookups',
            problem: `"${text}" was answered ${answer.slice(0, 120)}`,
          });
      }
      if (url === botUrl && measured && inAck) answeredInAck += 1;
      return elapsed;
    };

    emulator.admin.resetStats();
    const startedAt = Date.now();
    const texts = Array.from({ length: needed }, (_, i) => `post ${firstId + i}`);
    const latency = await alternateBotAndBare({ botUrl, bareUrl, warmup: options.warmup }, texts, send);
    const spanMs = Date.now() - startedAt;
    // Read before the form submissions, whose previews go upstream too.
    const upstreamRequests = emulator.admin.stats().requests.total;
    const modalSubmit = await benchModalSubmits({
      slack,
      secret: SECRET,
      botUrl,
      bareUrl,
      userId: BENCH_USER,
      requests: options.requests,
      warmup: options.warmup,
      violations,
    });
    const buttons = await benchButtonClicks({
      slack,
      secret: SECRET,
      botUrl,
      bareUrl,
      agent,
      userId: BENCH_USER,
      postIds: Array.from({ length: needed }, (_, i) => firstId + i),
      warmup: options.warmup,
      violations,
    });
    return {
      requests: options.requests,
      ...latency,
      answeredInAck,
      deferred,
      upstreamRequestsPerSecond: round(upstreamRequests / (spanMs / 1000), 2),
      modalSubmit,
      buttons,
      violations,
    };
  } finally {
    await agent.close();
    await adapter.stop();
    await botServer.close();
    await bareServer.close();
    await client.close();
    await store.close();
    await slack.close();
    await emulator.close();
    temp.cleanup();
  }
}
