import { identifyWebhook } from '../app/platforms.js';
import { storeNamespace } from '../app/sandbox.js';
import { openWorkerQueue } from '../app/worker-wiring.js';
import type { Config } from '../config/config.js';
import { CONFIG_ERROR_EXIT_CODE, configProblems, loadConfig } from '../config/load-config.js';
import { messageOf } from '../errors.js';
import { createStore } from '../store/index.js';
import { checkDirectory, checkRunningBot } from './doctor-directory.js';
import { checkStoreKey } from './doctor-store-key.js';
import { type CliIo, handleHelpOnly } from './io.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot doctor

Checks the configuration and every service it names, and prints a report:
the store (reachable, readable, writable), its encryption key (set, opens the stored tokens,
how many still need "store rotate-key"), the directory (reachable, token accepted, quota
left), what the running bot's polling instance last found there (saved in the store each
round: a refused token or an outage it is living with), the delivery workers on Redis (the
eviction policy and version BullMQ needs, messages queued, dead deliveries), which chat platforms are configured
and what each WEBHOOK_<NAME>_URL is (its URL masked). Lines start with ✓ (fine), ! (works, but
probably not what you want) or ✗ (broken). Exits 0 when nothing is broken, 1 when a check
failed, 78 when the configuration itself is invalid. Never prints a secret.`;

/** `warning`: it works, but probably not as intended; it does not change the exit code. */
type CheckStatus = 'ok' | 'warning' | 'failed';
type CheckResult = { name: string; status: CheckStatus; detail: string };

const MARKS: Record<CheckStatus, string> = { ok: '✓', warning: '!', failed: '✗' };

export const doctorCommand: Subcommand = {
  name: 'doctor',
  summary: 'Check the configuration, the store and the directory; print a report.',
  usage: USAGE,
  async run(argv, io) {
    const finished = handleHelpOnly(argv, io, USAGE);
    if (finished !== undefined) return finished;

    let config: Config;
    try {
      config = loadConfig();
    } catch (error) {
      const problems = configProblems(error);
      if (problems === undefined) throw error;
      io.stdout('✗ configuration');
      for (const problem of problems) io.stdout(`    ${problem}`);
      return CONFIG_ERROR_EXIT_CODE;
    }
    io.stdout('✓ configuration is valid');
    const store = await checkStore(config);
    const results = [
      store,
      { name: 'store key', ...(await checkStoreKey(config)) },
      await checkDirectory(config),
      // What the running bot found is kept in the store: nothing to read when it cannot be reached.
      ...(store.status === 'failed' ? [] : [await checkRunningBot(config)]),
      ...(store.status === 'failed' ? [] : await checkDeliveryWorkers(config)),
      ...describePlatforms(config),
      ...describeWebhooks(config),
    ];
    for (const result of results) io.stdout(`${MARKS[result.status]} ${result.name}: ${result.detail}`);
    return results.some((r) => r.status === 'failed') ? 1 : 0;
  },
};

async function checkStore(config: Config): Promise<CheckResult> {
  const name = `store (${config.store.source === 'default' ? 'default SQLite file' : config.store.source})`;
  const store = createStore({ url: config.store.url, namespace: 'directory-bot-doctor' });
  try {
    await store.ping(3000);
    const probe = `probe-${Date.now()}`;
    await store.keyv.set(probe, 'ok', 10_000);
    const readBack = await store.keyv.get(probe);
    await store.keyv.delete(probe);
    if (readBack !== 'ok')
      return {
        name,
        status: 'failed',
        detail: `${store.description} accepted a write but did not read it back`,
      };
    const detail = `${store.description} is readable and writable`;
    if ((await botKeyLayout(config)) === 'legacy')
      return {
        name,
        status: 'warning',
        detail: `${detail}; its keys are in the layout of earlier versions (directory-bot::directory-bot:…): stop every instance and run "directory-bot store migrate-keys" to rename them`,
      };
    if (store.kind === 'sqlite' && config.server.onHeroku) {
      return { name, status: 'warning', detail: `${detail}, but a file store on Heroku is wiped daily` };
    }
    return { name, status: 'ok', detail };
  } catch (error) {
    return { name, status: 'failed', detail: messageOf(error) };
  } finally {
    await store.close().catch(() => {});
  }
}

/** With delivery workers (Redis): what BullMQ needs of Redis, what is queued, and what was given up on. */
async function checkDeliveryWorkers(config: Config): Promise<CheckResult[]> {
  const open = openWorkerQueue(config);
  if (open === undefined) return [];
  const name = 'delivery workers';
  try {
    await open.checkRedis();
    const [queued, dead, jobs] = await Promise.all([
      open.queue.size(),
      open.queue.deadCount(),
      open.drains.counts(),
    ]);
    const detail = `${queued} message(s) queued, drain jobs ${jobs['active'] ?? 0} active / ${jobs['waiting'] ?? 0} waiting / ${jobs['delayed'] ?? 0} delayed`;
    if (dead > 0)
      return [
        {
          name,
          status: 'warning',
          detail: `${detail}; ${dead} DEAD (failed every attempt): "directory-bot deliveries dead" lists them, "deliveries replay --all" queues them again`,
        },
      ];
    return [{ name, status: 'ok', detail: `${detail}; none dead` }];
  } catch (error) {
    return [{ name, status: 'failed', detail: messageOf(error) }];
  } finally {
    await open.close().catch(() => {});
  }
}

/** Where the bot's own keys are (Redis only; its namespace, not the probe's). */
async function botKeyLayout(config: Config): Promise<'flat' | 'legacy' | undefined> {
  const store = createStore({ url: config.store.url, ...storeNamespace(config) });
  try {
    return await store.keyLayout?.();
  } finally {
    await store.close().catch(() => {});
  }
}

function describePlatforms(config: Config): CheckResult[] {
  const results: CheckResult[] = [];
  results.push({
    name: 'slack',
    status: 'ok',
    detail: config.slack
      ? `${config.slack.oauth ? 'multi-workspace OAuth' : 'single workspace'}, ${config.slack.appToken ? 'Socket Mode' : 'HTTP events at /slack/events'}`
      : 'not configured (set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET)',
  });
  results.push({
    name: 'discord',
    status: 'ok',
    detail: config.discord
      ? `application ${config.discord.applicationId}${config.discord.gateway ? ', gateway' : ''}${config.discord.publicKey ? ', HTTP interactions at /discord/interactions' : ''}`
      : 'not configured (set DISCORD_TOKEN and DISCORD_APPLICATION_ID)',
  });
  // Not an error (the sandbox runs this way on purpose), but a deploy that forgot its
  // platform variables would otherwise look healthy while posting to no one.
  if (!config.slack && !config.discord && config.webhooks.length === 0) {
    results.push({
      name: 'platforms',
      status: 'warning',
      detail: 'none configured: the bot will post nowhere but the console',
    });
  }
  results.push({
    name: 'subscriptions',
    status: 'ok',
    detail: `${config.feeds.subscriptions.length} static route(s) from SUBSCRIPTIONS`,
  });
  return results;
}

/**
 * Each webhook of the environment: its kind and its URL with the credential masked, or what is
 * wrong with it (the bot would refuse to start). Stored webhooks: `directory-bot webhook list`.
 */
function describeWebhooks(config: Config): CheckResult[] {
  return config.webhooks.map((webhook) => {
    const identified = identifyWebhook(webhook.url, webhook.secret !== undefined);
    const name = `webhook ${webhook.name}`;
    if ('problem' in identified)
      return { name, status: 'failed', detail: `${webhook.variable}: ${identified.problem}` };
    return { name, status: 'ok', detail: `${identified.kind.title}, ${identified.shown}` };
  });
}

export type { CheckResult, CliIo };
