import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { parseSubscriptionSpec, WEBHOOK_NAME, webhookVariable } from '../subscriptions/index.js';
import {
  type Config,
  type ConfiguredWebhookVariables,
  DEFAULT_SANDBOX_STORE_URL,
  DEFAULT_STORE_URL,
} from './config.js';
import { decodeEncryptionKey } from './encryption-key.js';
import { mergeEnvFile } from './env-file.js';
import { validateVariables } from './validate-variables.js';
import { VARIABLES } from './variables.js';

/** sysexits EX_CONFIG: the conventional exit code for a configuration error. */
export const CONFIG_ERROR_EXIT_CODE = 78;

// The configuration error is part of the project's one error hierarchy (code `config_invalid`);
// re-exported here because every caller of loadConfig handles it.
export { ConfigError, configProblems } from '../errors.js';

export interface LoadConfigOptions {
  /** Defaults to `process.env`: this module is the only reader of it. */
  environment?: Record<string, string | undefined>;
  /** `.env` file to merge under the environment; `false` to skip. Defaults to `./.env`. */
  envFile?: string | false;
}

/**
 * Validates the environment and returns the typed configuration, or throws a ConfigError
 * with one readable line per problem, each naming the variable and what it expects. Every
 * problem is collected before throwing: each variable's own check, then the checks that
 * relate variables to each other (which see only the values that passed their own check).
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const raw = options.environment ?? process.env;
  const merged =
    options.envFile === false ? { ...raw } : mergeEnvFile(raw, resolve(options.envFile ?? '.env'));
  // An empty value means "unset" on every platform's config UI.
  const present = Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== undefined && value !== ''),
  );

  const { values: env, problems } = validateVariables(VARIABLES, present);
  const str = (name: string) => env[name] as string | undefined;
  const num = (name: string) => env[name] as number;
  const bool = (name: string) => env[name] as boolean;
  // "Required" checks look at what was given, valid or not: a bad value already has its own
  // line, and calling it missing as well would contradict it.
  const isSet = (name: string) => present[name] !== undefined;
  const read: Reader = { str, num, bool, isSet };

  const subscriptions = parseSubscriptions(str('SUBSCRIPTIONS'), problems);
  const directoryBaseUrl = str('DIRECTORY_BASE_URL');
  if (isSet('DIRECTORY_BASE_URL') && !isSet('DIRECTORY_TOKEN')) {
    problems.push(
      'DIRECTORY_TOKEN: required when DIRECTORY_BASE_URL is set (the access token for that service)',
    );
  }

  const slack = slackConfig(read, problems);
  if (slack?.oauth && subscriptions.some((s) => s.platform === 'slack')) {
    problems.push(
      'SUBSCRIPTIONS: static slack: routes need a single-workspace install (SLACK_BOT_TOKEN); with multi-workspace OAuth, subscribe channels with /directory subscribe',
    );
  }
  const discord = discordConfig(read, problems);
  const webhooks = webhookConfig(present, str, problems);
  for (const seed of subscriptions.filter((s) => s.platform === 'webhook')) {
    if (!webhooks.some((w) => w.name === seed.channelId) && !isSet(webhookVariable(seed.channelId, 'URL'))) {
      problems.push(
        `SUBSCRIPTIONS: webhook:${seed.channelId} has no URL: set ${webhookVariable(seed.channelId, 'URL')} to the webhook's URL`,
      );
    }
  }
  const encryption = encryptionKeys(read, slack?.oauth !== undefined, problems);
  // Anything the emulator's invented data could reach, or (Slack, Discord) that reaches the bot.
  const hasPlatform = slack !== undefined || discord !== undefined || webhooks.length > 0;
  const sandbox = sandboxMode(
    { requested: env['SANDBOX'] as boolean | undefined, given: isSet('SANDBOX') },
    { baseUrl: isSet('DIRECTORY_BASE_URL'), token: isSet('DIRECTORY_TOKEN') },
    hasPlatform,
    problems,
  );
  const panel = panelConfig(read, env, slack, discord, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const store = { ...storeConfig(str, sandbox), encryption };
  const secrets = VARIABLES.filter((v) => v.secret && v.pattern === undefined)
    .map((v) => str(v.name))
    .filter((value): value is string => typeof value === 'string' && value.length >= 6);
  // A webhook's URL is its credential, whole: scrubbed wherever it appears, as is its secret.
  for (const webhook of webhooks) secrets.push(webhook.url, ...(webhook.secret ? [webhook.secret] : []));
  // A list of session secrets is one variable holding several.
  secrets.push(...((env['PANEL_SESSION_SECRET'] as string[] | undefined) ?? []));
  // Credentials embedded in store URLs are secrets too.
  for (const url of [store.url]) {
    const password = safePassword(url);
    if (password) secrets.push(password);
  }

  return {
    server: {
      port: num('PORT'),
      portSet: isSet('PORT'),
      host: listenHost(str('HOST'), sandbox && !hasPlatform && str('DYNO') === undefined),
      logLevel: str('LOG_LEVEL') as Config['server']['logLevel'],
      logFormat: str('LOG_FORMAT') as Config['server']['logFormat'],
      logLevelSet: present['LOG_LEVEL'] !== undefined,
      shutdownTimeoutMs: num('SHUTDOWN_TIMEOUT_S') * 1000,
      onHeroku: str('DYNO') !== undefined,
    },
    store,
    workers: {
      mode: str('DELIVERY_WORKERS') as 'auto' | 'off',
      inWeb: bool('WORKER_IN_WEB'),
      concurrency: num('WORKER_CONCURRENCY'),
    },
    directory: {
      baseUrl: directoryBaseUrl,
      token: str('DIRECTORY_TOKEN'),
      lookupReserveFraction: num('LOOKUP_RESERVE_FRACTION'),
    },
    feeds: {
      subscriptions,
      adminUserIds: env['ADMIN_USER_IDS'] as string[],
      pollMinIntervalMs: num('POLL_MIN_INTERVAL_S') * 1000,
      pollerLeaseTtlMs: num('POLLER_LEASE_TTL_S') * 1000,
      dedupeTtlMs: num('DEDUPE_TTL_DAYS') * 86_400_000,
      edits: {
        maxAgeMs: num('EDIT_MAX_AGE_H') * 3_600_000,
        minIntervalMs: num('EDIT_MIN_INTERVAL_S') * 1000,
      },
      liveRemindMinutes: num('LIVE_REMIND_MINUTES'),
      clearNotifications: bool('NOTIFICATIONS_CLEAR'),
    },
    slack,
    discord,
    webhooks,
    panel,
    sandbox: { enabled: sandbox, activityPerMinute: num('SANDBOX_ACTIVITY_PER_MIN') },
    secrets,
  };
}

function parseSubscriptions(value: string | undefined, problems: string[]) {
  if (!value) return [];
  const result = parseSubscriptionSpec(value);
  for (const error of result.errors) problems.push(`SUBSCRIPTIONS: ${error}`);
  return result.seeds;
}

/**
 * Whether the embedded emulator is the directory. Never by accident once a chat platform is
 * configured: that would post invented data into real channels, so a platform without
 * DIRECTORY_BASE_URL is an error unless SANDBOX=true asks for the demo. SANDBOX=true with a
 * DIRECTORY_BASE_URL is an error too: the two ask for different directories, and guessing
 * could post invented data where real data was meant (or the reverse). Like the other
 * "required" checks it looks at what was given: a malformed DIRECTORY_BASE_URL or SANDBOX
 * already has its own line, and calling it missing as well would contradict it.
 */
function sandboxMode(
  sandboxFlag: { requested: boolean | undefined; given: boolean },
  directoryGiven: { baseUrl: boolean; token: boolean },
  hasPlatform: boolean,
  problems: string[],
): boolean {
  const { requested, given } = sandboxFlag;
  if (given && requested === undefined) return false;
  if (requested === true) {
    if (directoryGiven.baseUrl) {
      problems.push(
        'SANDBOX: true runs the embedded emulator, but DIRECTORY_BASE_URL names a real directory; unset one of them',
      );
    } else if (directoryGiven.token) {
      problems.push(
        'DIRECTORY_TOKEN: not used with SANDBOX=true (the embedded emulator has its own token); unset it, or unset SANDBOX and set DIRECTORY_BASE_URL',
      );
    }
    return true;
  }
  if (directoryGiven.baseUrl) return false;
  if (requested === false) {
    problems.push('DIRECTORY_BASE_URL: required with SANDBOX=false (the Content Directory Service to read)');
  } else if (hasPlatform) {
    problems.push(
      "DIRECTORY_BASE_URL: required with Slack, Discord or a webhook, or the emulator's invented data would reach real channels; set SANDBOX=true to run the demo on purpose",
    );
  } else if (directoryGiven.token) {
    // A token is meant for a real directory: running the sandbox instead would look like a
    // working bot that never shows a real item.
    problems.push(
      'DIRECTORY_BASE_URL: required when DIRECTORY_TOKEN is set (the directory that token is for); unset DIRECTORY_TOKEN to run the sandbox',
    );
  }
  return requested === undefined && !hasPlatform;
}

/**
 * Where the HTTP server listens. A sandbox only the person at this machine uses stays off the
 * network (a control panel will be served on this port); a bot that Slack, Discord or a
 * platform's router must reach listens on every interface, as Heroku requires.
 */
function listenHost(host: string | undefined, localOnly: boolean): string | undefined {
  if (host !== undefined) return host;
  return localOnly ? '127.0.0.1' : undefined;
}

/** The decoded store keys; a key is required once the store holds workspaces' tokens (OAuth install). */
function encryptionKeys(
  { str, isSet }: Reader,
  multiWorkspace: boolean,
  problems: string[],
): Config['store']['encryption'] {
  if (!isSet('STORE_ENCRYPTION_KEY')) {
    if (multiWorkspace) {
      problems.push(
        "STORE_ENCRYPTION_KEY: required with multi-workspace Slack install (SLACK_CLIENT_ID/SECRET/STATE_SECRET), to encrypt the workspaces' tokens in the store; generate one with openssl rand -base64 32",
      );
    }
    if (isSet('STORE_ENCRYPTION_KEY_PREVIOUS')) {
      problems.push(
        'STORE_ENCRYPTION_KEY_PREVIOUS: only read beside STORE_ENCRYPTION_KEY (the key rotated to)',
      );
    }
    return undefined;
  }
  const current = decodeEncryptionKey(str('STORE_ENCRYPTION_KEY') ?? '');
  const previousText = str('STORE_ENCRYPTION_KEY_PREVIOUS');
  const previous = previousText === undefined ? undefined : decodeEncryptionKey(previousText);
  // A malformed value already has its own line from the variable's check.
  return current === undefined ? undefined : { current, previous };
}

function storeConfig(
  str: (name: string) => string | undefined,
  sandbox: boolean,
): Omit<Config['store'], 'encryption'> {
  const storeUrl = str('STORE_URL');
  if (storeUrl) return { url: storeUrl, source: 'STORE_URL' };
  const redisUrl = str('REDIS_URL');
  if (redisUrl) return { url: redisUrl, source: 'REDIS_URL' };
  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl) return { url: databaseUrl, source: 'DATABASE_URL' };
  // An explicit store is honoured in the sandbox too: its feed and delivery state lives under
  // the sandbox's own directory id there, so it never touches a real directory's.
  return { url: sandbox ? DEFAULT_SANDBOX_STORE_URL : DEFAULT_STORE_URL, source: 'default' };
}

/** Validated values, plus whether a variable was given at all (even with a bad value). */
interface Reader {
  str: (name: string) => string | undefined;
  num: (name: string) => number;
  bool: (name: string) => boolean;
  isSet: (name: string) => boolean;
}

function slackConfig({ str, num, isSet }: Reader, problems: string[]): Config['slack'] {
  const botToken = str('SLACK_BOT_TOKEN');
  const signingSecret = str('SLACK_SIGNING_SECRET');
  const appToken = str('SLACK_APP_TOKEN');
  const clientId = str('SLACK_CLIENT_ID');
  const clientSecret = str('SLACK_CLIENT_SECRET');
  const stateSecret = str('SLACK_STATE_SECRET');
  const oauthParts = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'].filter(isSet).length;
  // The app's client id and secret alone are Sign in with Slack for the control panel, not an install.
  const signInOnly = oauthParts === 2 && !isSet('SLACK_STATE_SECRET');
  const hasBotToken = isSet('SLACK_BOT_TOKEN');
  const hasAppToken = isSet('SLACK_APP_TOKEN');
  if (!hasBotToken && !isSet('SLACK_SIGNING_SECRET') && !hasAppToken && oauthParts === 0) return undefined;

  if (botToken && !botToken.startsWith('xoxb-'))
    problems.push('SLACK_BOT_TOKEN: expected a bot token starting with xoxb-');
  if (appToken && !appToken.startsWith('xapp-'))
    problems.push('SLACK_APP_TOKEN: expected an app-level token starting with xapp-');
  if (!isSet('SLACK_SIGNING_SECRET'))
    problems.push('SLACK_SIGNING_SECRET: required to verify requests from Slack when Slack is configured');
  if (oauthParts > 0 && oauthParts < 3 && !signInOnly) {
    problems.push(
      'SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET: set all three for multi-workspace install, or none',
    );
  }
  if (hasBotToken && oauthParts === 3) {
    problems.push(
      'SLACK_BOT_TOKEN: leave it unset with multi-workspace OAuth (each workspace gets its own token at install)',
    );
  }
  if (hasAppToken && oauthParts === 3) {
    problems.push(
      'SLACK_APP_TOKEN: Socket Mode serves a single workspace; unset it, or unset SLACK_CLIENT_ID/SECRET/STATE_SECRET',
    );
  }
  if (!hasBotToken && oauthParts !== 3) {
    problems.push(
      'SLACK_BOT_TOKEN: required for a single-workspace install (or set the three SLACK_CLIENT_* / SLACK_STATE_SECRET for OAuth)',
    );
  }
  return {
    botToken,
    signingSecret: signingSecret ?? '',
    appToken,
    apiUrl: str('SLACK_API_URL') ?? 'https://slack.com/api/',
    workspaceMessagesPerMinute: num('SLACK_WORKSPACE_MESSAGES_PER_MINUTE'),
    oauth: clientId && clientSecret && stateSecret ? { clientId, clientSecret, stateSecret } : undefined,
  };
}

function discordConfig({ str, bool, isSet }: Reader, problems: string[]): Config['discord'] {
  const token = str('DISCORD_TOKEN');
  const publicKey = str('DISCORD_PUBLIC_KEY');
  const applicationId = str('DISCORD_APPLICATION_ID');
  const given = ['DISCORD_TOKEN', 'DISCORD_PUBLIC_KEY', 'DISCORD_APPLICATION_ID'].filter(isSet);
  if (given.length === 0) return undefined;
  if (!isSet('DISCORD_APPLICATION_ID')) {
    problems.push('DISCORD_APPLICATION_ID: required when DISCORD_TOKEN or DISCORD_PUBLIC_KEY is set');
  }
  if (!isSet('DISCORD_TOKEN')) {
    problems.push('DISCORD_TOKEN: required to post feed messages to Discord channels');
  }
  return {
    token,
    applicationId: applicationId ?? '',
    publicKey,
    apiUrl: str('DISCORD_API_URL') ?? 'https://discord.com/api',
    gateway: bool('DISCORD_GATEWAY'),
    restrictedCommandName: str('DISCORD_ADMIN_COMMAND'),
  };
}

/**
 * The webhooks the environment names: one per `WEBHOOK_<NAME>_URL` (each already checked as a URL
 * by its own schema), with its `_SECRET`. A secret without a URL, or a name that SUBSCRIPTIONS
 * could not write, is a problem naming the variable.
 */
function webhookConfig(
  present: Record<string, string | undefined>,
  str: (name: string) => string | undefined,
  problems: string[],
): ConfiguredWebhookVariables[] {
  const webhooks: ConfiguredWebhookVariables[] = [];
  for (const variable of Object.keys(present).sort()) {
    const match = /^WEBHOOK_([A-Z0-9_]+)_(URL|SECRET)$/.exec(variable);
    if (!match) continue;
    const [, upper = '', part] = match;
    const name = upper.toLowerCase().replaceAll('_', '-');
    if (!WEBHOOK_NAME.test(name)) {
      problems.push(
        `${variable}: the webhook's name must be letters and digits with single underscores between them, at most 32 (WEBHOOK_TEAM_NEWS_URL is webhook:team-news)`,
      );
      continue;
    }
    if (part === 'SECRET') {
      if (present[webhookVariable(name, 'URL')] === undefined) {
        problems.push(
          `${variable}: set only beside ${webhookVariable(name, 'URL')} (the webhook it signs for)`,
        );
      }
      continue;
    }
    const url = str(variable);
    // A malformed URL already has its own line from the variable's check.
    if (url === undefined) continue;
    webhooks.push({ name, url, secret: str(webhookVariable(name, 'SECRET')), variable });
  }
  return webhooks;
}

/**
 * The control panel's settings. Outside the sandbox it signs people in with Slack or Discord, so
 * PANEL_URL needs a session secret and at least one platform's OAuth client; the sandbox signs in
 * the person at the machine and needs none of them.
 */
function panelConfig(
  { str, isSet }: Reader,
  env: Record<string, unknown>,
  slack: Config['slack'],
  discord: Config['discord'],
  problems: string[],
): Config['panel'] {
  const url = str('PANEL_URL')?.replace(/\/+$/, '');
  const sessionSecrets = (env['PANEL_SESSION_SECRET'] as string[] | undefined) ?? [];
  const operatorIds = (env['PANEL_OPERATOR_IDS'] as string[] | undefined) ?? [];
  const clientId = str('SLACK_CLIENT_ID');
  const slackSecret = str('SLACK_CLIENT_SECRET');
  const discordSecret = str('DISCORD_CLIENT_SECRET');
  if (isSet('DISCORD_CLIENT_SECRET') && discord === undefined)
    problems.push(
      'DISCORD_CLIENT_SECRET: set DISCORD_TOKEN and DISCORD_APPLICATION_ID too (it signs people in to that app)',
    );
  if (url !== undefined && new URL(url).pathname !== '/')
    problems.push('PANEL_URL: the panel is served at /, so give its origin only (https://host, no path)');
  if (isSet('PANEL_URL') && !isSet('PANEL_SESSION_SECRET'))
    problems.push('PANEL_SESSION_SECRET: required with PANEL_URL (32 or more random characters)');
  const slackSignIn = slack !== undefined && clientId !== undefined && slackSecret !== undefined;
  const discordSignIn = discord !== undefined && discordSecret !== undefined;
  if (isSet('PANEL_URL') && !slackSignIn && !discordSignIn && !isSet('DISCORD_CLIENT_SECRET'))
    problems.push(
      'PANEL_URL: nobody could sign in; set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (Sign in with Slack) or DISCORD_CLIENT_SECRET (Sign in with Discord)',
    );
  const withUrl = url !== undefined;
  return {
    url,
    sessionSecrets: withUrl ? sessionSecrets : [],
    operatorIds,
    slack: withUrl && slackSignIn ? { clientId, clientSecret: slackSecret } : undefined,
    discord:
      withUrl && discordSignIn && discord
        ? { clientId: discord.applicationId, clientSecret: discordSecret }
        : undefined,
  };
}

function safePassword(url: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password.length >= 4 ? password : undefined;
  } catch {
    return undefined;
  }
}
