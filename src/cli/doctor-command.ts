import type { Config } from '../config/config.js';
import { CONFIG_ERROR_EXIT_CODE, ConfigError, loadConfig } from '../config/load-config.js';
import { createDirectoryClient } from '../directory/index.js';
import { createStore } from '../store/create-store.js';
import { USER_AGENT } from '../version.js';
import { type CliIo, handleHelpOnly } from './io.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot doctor

Checks the configuration and every service it names, and prints a report:
the store (reachable, readable, writable), the directory (reachable, token accepted, quota
left) and which chat platforms are configured. Exits 0 when all is well, 1 when a check
failed, 78 when the configuration itself is invalid. Never prints a secret.`;

type CheckResult = { name: string; ok: boolean; detail: string };

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
      if (!(error instanceof ConfigError)) throw error;
      io.stdout('✗ configuration');
      for (const problem of error.problems) io.stdout(`    ${problem}`);
      return CONFIG_ERROR_EXIT_CODE;
    }
    io.stdout('✓ configuration is valid');
    const results = [await checkStore(config), await checkDirectory(config), ...describePlatforms(config)];
    for (const result of results) io.stdout(`${result.ok ? '✓' : '✗'} ${result.name}: ${result.detail}`);
    return results.every((r) => r.ok) ? 0 : 1;
  },
};

/** One cheap authenticated call (GET /v2/oauth/token): reachable, token accepted, quota left. */
async function checkDirectory(config: Config): Promise<CheckResult> {
  const name = 'directory';
  if (!config.directory.baseUrl) {
    return {
      name,
      ok: true,
      detail:
        'not configured: the embedded emulator serves sandbox data (set DIRECTORY_BASE_URL and DIRECTORY_TOKEN to go live)',
    };
  }
  const client = createDirectoryClient({
    baseUrl: config.directory.baseUrl,
    token: config.directory.token ?? '',
    userAgent: USER_AGENT,
    retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  });
  try {
    await client.tokenInfo();
    const quotas = client.ledger.snapshot();
    return {
      name,
      ok: true,
      detail: `${config.directory.baseUrl} accepted the token; V2 requests left this window: ${quotas['v2-requests'].remaining} of ${quotas['v2-requests'].limit}`,
    };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `${config.directory.baseUrl}: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await client.close();
  }
}

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
      return { name, ok: false, detail: `${store.description} accepted a write but did not read it back` };
    const warning =
      store.kind === 'sqlite' && config.server.onHeroku
        ? ' — WARNING: a file store on Heroku is wiped daily'
        : '';
    return { name, ok: true, detail: `${store.description} is readable and writable${warning}` };
  } catch (error) {
    return { name, ok: false, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    await store.close().catch(() => {});
  }
}

function describePlatforms(config: Config): CheckResult[] {
  const results: CheckResult[] = [];
  results.push({
    name: 'slack',
    ok: true,
    detail: config.slack
      ? `${config.slack.oauth ? 'multi-workspace OAuth' : 'single workspace'}, ${config.slack.appToken ? 'Socket Mode' : 'HTTP events at /slack/events'}`
      : 'not configured (set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET)',
  });
  results.push({
    name: 'discord',
    ok: true,
    detail: config.discord
      ? `application ${config.discord.applicationId}${config.discord.gateway ? ', gateway' : ''}${config.discord.publicKey ? ', HTTP interactions at /discord/interactions' : ''}`
      : 'not configured (set DISCORD_TOKEN and DISCORD_APPLICATION_ID)',
  });
  results.push({
    name: 'subscriptions',
    ok: true,
    detail: `${config.feeds.subscriptions.length} static route(s) from SUBSCRIPTIONS`,
  });
  return results;
}

export type { CheckResult, CliIo };
