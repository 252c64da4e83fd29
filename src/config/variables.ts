import { isIP } from 'node:net';
import { z } from 'zod';
import { decodeEncryptionKey, ENCRYPTION_KEY_EXPECTED } from './encryption-key.js';

/**
 * Every environment variable the bot reads, in one table. The zod schema, `.env.example`
 * and the README's configuration table are all derived from (or checked against) this list,
 * so documentation cannot drift from behaviour.
 */
export interface VariableSpec {
  name: string;
  group: VariableGroup;
  /** One sentence: what it does and what it expects. */
  description: string;
  /** Shown in docs; `undefined` = unset by default. */
  defaultText?: string;
  /** An example value for `.env.example` when there is no default. */
  example?: string;
  secret?: boolean;
  schema: z.ZodType;
  /**
   * A family of variables rather than one: every variable whose name matches is checked against
   * `schema` (`WEBHOOK_<NAME>_URL`, one per webhook). `name` is how the docs write the family.
   */
  pattern?: RegExp;
}

export type VariableGroup =
  | 'Server'
  | 'Store'
  | 'Directory'
  | 'Feeds'
  | 'Slack'
  | 'Discord'
  | 'Webhooks'
  | 'Panel'
  | 'Sandbox';

const optionalString = z.string().trim().min(1, { error: 'a value other than blanks' }).optional();

function integer(defaultValue: number, min: number, max: number) {
  return z.coerce
    .number({ error: `a whole number from ${min} to ${max}` })
    .int({ error: `a whole number from ${min} to ${max}` })
    .min(min, { error: `a whole number from ${min} to ${max}` })
    .max(max, { error: `a whole number from ${min} to ${max}` })
    .default(defaultValue);
}

function fraction(defaultValue: number) {
  return z.coerce
    .number({ error: 'a number from 0 to 0.9' })
    .min(0, { error: 'a number from 0 to 0.9' })
    .max(0.9, { error: 'a number from 0 to 0.9' })
    .default(defaultValue);
}

function booleanFlag(defaultValue: boolean) {
  return z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' })
    .default(defaultValue ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
}

/** true/false with no default: unset means "decide from the rest of the configuration". */
function optionalBooleanFlag() {
  return z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'true or false' })
    .optional()
    .transform((value) =>
      value === undefined ? undefined : value === 'true' || value === '1' || value === 'yes',
    );
}

/** A URL string whose parsed form passes `test`; false for anything that is not a URL. */
function urlWhere(test: (url: URL) => boolean, error: string) {
  return z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return test(new URL(value));
        } catch {
          return false;
        }
      },
      { error },
    );
}

const isHttp = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

function httpUrl() {
  return urlWhere(isHttp, 'an absolute http(s) URL').optional();
}

const STORE_PROTOCOLS = ['sqlite:', 'redis:', 'rediss:', 'postgres:', 'postgresql:'];

function storeUrl() {
  return urlWhere(
    (url) => STORE_PROTOCOLS.includes(url.protocol),
    'a URL starting with sqlite://, redis://, rediss://, postgres:// or postgresql://',
  ).optional();
}

/** A webhook's URL: absolute http(s), with no user name or password in it (the path is the credential). */
function webhookUrl() {
  return urlWhere(
    (url) => isHttp(url) && url.username === '' && url.password === '',
    'an absolute https URL (the webhook URL its platform gave you)',
  );
}

function encryptionKey() {
  return z
    .string()
    .trim()
    .refine((value) => decodeEncryptionKey(value) !== undefined, { error: ENCRYPTION_KEY_EXPECTED })
    .optional();
}

const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );

export const VARIABLES: readonly VariableSpec[] = [
  {
    name: 'PORT',
    group: 'Server',
    description:
      'HTTP port for health, metrics, Slack events and Discord interactions. A "directory-bot worker" binds it only when it is set, for its probes (/healthz, /readyz, /metrics).',
    defaultText: '3000',
    schema: integer(3000, 0, 65535),
  },
  {
    name: 'HOST',
    group: 'Server',
    description:
      "Interface the HTTP server listens on: an IP address (0.0.0.0 or :: for every interface) or a host name. Unset: 127.0.0.1 for the sandbox without Slack or Discord (nothing outside this machine needs its port), every interface otherwise (a deployed bot: Slack, Discord and the platform's router connect from outside; also whenever DYNO is set).",
    example: '127.0.0.1',
    schema: z
      .string()
      .trim()
      .refine(
        (value) =>
          isIP(value) !== 0 ||
          /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(value),
        {
          error: 'an IP address (127.0.0.1, 0.0.0.0, ::) or a host name',
        },
      )
      .optional(),
  },
  {
    name: 'LOG_LEVEL',
    group: 'Server',
    description:
      'Least severe log level written: trace, debug, info, warn, error, fatal or silent. Unset beside a directory> prompt: warnings on screen, everything in data/directory-bot.log.',
    defaultText: 'info',
    schema: z
      .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
        error: 'one of trace, debug, info, warn, error, fatal, silent',
      })
      .default('info'),
  },
  {
    name: 'LOG_FORMAT',
    group: 'Server',
    description:
      'json (one JSON object per line), pretty (readable), or auto: pretty on a terminal, JSON otherwise.',
    defaultText: 'auto',
    schema: z.enum(['auto', 'json', 'pretty'], { error: 'one of auto, json, pretty' }).default('auto'),
  },
  {
    name: 'SHUTDOWN_TIMEOUT_S',
    group: 'Server',
    description: 'Seconds to finish in-flight work after SIGTERM before exiting (Heroku kills at 30).',
    defaultText: '25',
    schema: integer(25, 1, 600),
  },
  {
    name: 'STORE_URL',
    group: 'Store',
    description:
      'Where state lives: sqlite://path, redis://, rediss:// or postgres://. Unset: REDIS_URL, then DATABASE_URL, then sqlite://./data/directory-bot.sqlite (the sandbox: sqlite://./data/sandbox.sqlite).',
    example: 'sqlite://./data/directory-bot.sqlite',
    schema: storeUrl(),
  },
  {
    name: 'REDIS_URL',
    group: 'Store',
    description: 'Redis URL (set by the Heroku Redis add-on); used when STORE_URL is unset.',
    secret: true,
    example: 'redis://127.0.0.1:6379',
    schema: storeUrl(),
  },
  {
    name: 'DATABASE_URL',
    group: 'Store',
    description:
      'PostgreSQL URL (set by the Heroku Postgres add-on); used when STORE_URL and REDIS_URL are unset.',
    secret: true,
    example: 'postgres://postgres@127.0.0.1:5432/directory_bot',
    schema: storeUrl(),
  },
  {
    name: 'STORE_ENCRYPTION_KEY',
    group: 'Store',
    description:
      'Encrypts the tokens kept in the store (AES-256-GCM): 32 random bytes, base64 (openssl rand -base64 32) or 64 hex characters (app.json generates one). Required with multi-workspace Slack install; keep it, or the stored installs cannot be read.',
    secret: true,
    schema: encryptionKey(),
  },
  {
    name: 'STORE_ENCRYPTION_KEY_PREVIOUS',
    group: 'Store',
    description:
      'The key being rotated away from: still opens stored tokens, each re-encrypted under STORE_ENCRYPTION_KEY when read (or all at once: directory-bot store rotate-key). Unset it once rotated.',
    secret: true,
    schema: encryptionKey(),
  },
  {
    name: 'DIRECTORY_BASE_URL',
    group: 'Directory',
    description:
      'Base URL of the Content Directory Service. Required with Slack or Discord, and with DIRECTORY_TOKEN; unset with none of them (or with SANDBOX=true): the sandbox, an embedded emulator inventing data.',
    example: 'https://directory.example.com',
    schema: httpUrl(),
  },
  {
    name: 'DIRECTORY_TOKEN',
    group: 'Directory',
    description:
      'Access token sent as Authorization: Bearer. Required with DIRECTORY_BASE_URL, and only with it (set alone it is an error, not the sandbox). Refused by the directory at start-up: exit 78.',
    secret: true,
    schema: optionalString,
  },
  {
    name: 'LOOKUP_RESERVE_FRACTION',
    group: 'Directory',
    description: 'Share of every directory quota kept back for interactive /directory lookups (0 to 0.9).',
    defaultText: '0.2',
    schema: fraction(0.2),
  },
  {
    name: 'SUBSCRIPTIONS',
    group: 'Feeds',
    description:
      'Static feed routes, ";"-separated platform:channel=feed?filters, e.g. slack:C0123=comments;discord:112233=live?video=true;webhook:team-news=posts (its URL in WEBHOOK_TEAM_NEWS_URL). Beside the filters: format=, on-removal=mark|delete, backfill=N (the N most recent posted once, when the route is added), mention=role:<id>|group:<id>|user:<id> and mention-on=<words>, webhook-name= and webhook-avatar=, and the schedule options of /directory subscribe (digest=daily@09:00&top=5&tz=Asia/Tokyo&quiet=22:00-07:00…; docs/commands.md).',
    example:
      'slack:C0123ABCD=comments;slack:C0123ABCD=collections;discord:112233445566778899=live?video=true',
    schema: z.string().optional(),
  },
  {
    name: 'ADMIN_USER_IDS',
    group: 'Feeds',
    description:
      'Comma-separated platform user ids allowed to change subscriptions anywhere, besides channel managers.',
    example: 'U0123ABCD,112233445566778899',
    schema: commaList,
  },
  {
    name: 'POLL_MIN_INTERVAL_S',
    group: 'Feeds',
    description: 'Shortest time between two polls of one feed, whatever the quota would allow.',
    defaultText: '30',
    schema: integer(30, 1, 86_400),
  },
  {
    name: 'POLLER_LEASE_TTL_S',
    group: 'Feeds',
    description:
      'Seconds the polling instance holds its lease between renewals (it renews every third of it); after a crash another instance (or the restarted one) takes over within this time.',
    defaultText: '10',
    schema: integer(10, 2, 600),
  },
  {
    name: 'DELIVERY_WORKERS',
    group: 'Store',
    description:
      'auto: with a Redis store, deliveries go through BullMQ delivery workers (ADR 005): every process started with "start" runs one (WORKER_IN_WEB) and "directory-bot worker" runs only that; with SQLite or PostgreSQL the polling process delivers, as always. off: the polling process delivers on any store.',
    defaultText: 'auto',
    schema: z.enum(['auto', 'off'], { error: 'one of auto, off' }).default('auto'),
  },
  {
    name: 'WORKER_IN_WEB',
    group: 'Store',
    description:
      'With delivery workers (Redis), "start" runs a worker in its own process too, so one dyno delivers on its own; false leaves delivery to "worker" processes.',
    defaultText: 'true',
    schema: booleanFlag(true),
  },
  {
    name: 'WORKER_CONCURRENCY',
    group: 'Store',
    description: 'Channels one delivery worker sends to at once (one message in flight per channel).',
    defaultText: '16',
    schema: integer(16, 1, 1000),
  },
  {
    name: 'DEDUPE_TTL_DAYS',
    group: 'Feeds',
    description:
      'How long a delivered item is remembered so it is never posted twice; longer than any feed window.',
    defaultText: '30',
    schema: integer(30, 1, 365),
  },
  {
    name: 'EDIT_MAX_AGE_H',
    group: 'Feeds',
    description:
      'Hours after posting that a message is kept current in place (votes, comment count, rank of the day, live status, product count, removed upstream); 0 never edits.',
    defaultText: '24',
    schema: integer(24, 0, 168),
  },
  {
    name: 'EDIT_MIN_INTERVAL_S',
    group: 'Feeds',
    description:
      'Seconds between two edits of one message at most; changes in between are folded into the next edit, which shows only the latest state.',
    defaultText: '300',
    schema: integer(300, 10, 86_400),
  },
  {
    name: 'LIVE_REMIND_MINUTES',
    group: 'Feeds',
    description: 'Default minutes before a live event starts to post a "starting soon" reminder; 0 disables.',
    defaultText: '15',
    schema: integer(15, 0, 1440),
  },
  {
    name: 'NOTIFICATIONS_CLEAR',
    group: 'Feeds',
    description: 'After notifications are delivered, clear them upstream with DELETE /v1/notifications.',
    defaultText: 'false',
    schema: booleanFlag(false),
  },
  {
    name: 'SLACK_BOT_TOKEN',
    group: 'Slack',
    description:
      'Bot token (xoxb-…) of a single-workspace install. Enables the Slack adapter. A rotating token (xoxe.…) is refused: token rotation needs the multi-workspace install.',
    secret: true,
    schema: optionalString,
  },
  {
    name: 'SLACK_SIGNING_SECRET',
    group: 'Slack',
    description: "Signing secret from the Slack app's Basic Information; verifies every request Slack sends.",
    secret: true,
    schema: optionalString,
  },
  {
    name: 'SLACK_APP_TOKEN',
    group: 'Slack',
    description:
      'App-level token (xapp-…) with connections:write; when set, Socket Mode is used instead of HTTP.',
    secret: true,
    schema: optionalString,
  },
  {
    name: 'SLACK_API_URL',
    group: 'Slack',
    description: 'Slack Web API base URL; change for GovSlack or a test server.',
    defaultText: 'https://slack.com/api/',
    schema: httpUrl().default('https://slack.com/api/'),
  },
  {
    name: 'SLACK_WORKSPACE_MESSAGES_PER_MINUTE',
    group: 'Slack',
    description:
      'Feed messages posted per minute in each Slack workspace, across its channels, with bursts of 5 seconds\' worth; every workspace of a multi-workspace install has its own: Slack allows chat.postMessage about 1 per second per channel and "several hundred messages per minute" per workspace without a number (docs/slack.md).',
    defaultText: '240',
    schema: integer(240, 1, 6000),
  },
  {
    name: 'SLACK_CLIENT_ID',
    group: 'Slack',
    description:
      'OAuth client id; with SLACK_CLIENT_SECRET and SLACK_STATE_SECRET enables multi-workspace install; with SLACK_CLIENT_SECRET and PANEL_URL, Sign in with Slack to the control panel.',
    schema: optionalString,
  },
  {
    name: 'SLACK_CLIENT_SECRET',
    group: 'Slack',
    description: 'OAuth client secret, for multi-workspace install and Sign in with Slack.',
    secret: true,
    schema: optionalString,
  },
  {
    name: 'SLACK_STATE_SECRET',
    group: 'Slack',
    description: 'Random secret that signs the OAuth state parameter for multi-workspace install.',
    secret: true,
    schema: optionalString,
  },
  {
    name: 'DISCORD_TOKEN',
    group: 'Discord',
    description: 'Bot token. Enables the Discord adapter (gateway connection and message posting).',
    secret: true,
    schema: optionalString,
  },
  {
    name: 'DISCORD_APPLICATION_ID',
    group: 'Discord',
    description: 'Application id; required with DISCORD_TOKEN or DISCORD_PUBLIC_KEY.',
    schema: z
      .string()
      .trim()
      .regex(/^\d{17,20}$/, { error: 'a Discord snowflake (17 to 20 digits)' })
      .optional(),
  },
  {
    name: 'DISCORD_PUBLIC_KEY',
    group: 'Discord',
    description: 'Application public key (hex); when set, /discord/interactions serves HTTP interactions.',
    schema: z
      .string()
      .trim()
      .regex(/^[0-9a-fA-F]{64}$/, { error: '64 hexadecimal characters' })
      .optional(),
  },
  {
    name: 'DISCORD_API_URL',
    group: 'Discord',
    description: 'Discord REST API base URL; change for a test server.',
    defaultText: 'https://discord.com/api',
    schema: httpUrl().default('https://discord.com/api'),
  },
  {
    name: 'DISCORD_GATEWAY',
    group: 'Discord',
    description: 'Open a gateway connection to receive interactions; false = HTTP interactions only.',
    defaultText: 'true',
    schema: booleanFlag(true),
  },
  {
    name: 'DISCORD_ADMIN_COMMAND',
    group: 'Discord',
    description:
      'Name of a second top-level command (e.g. directory-admin) holding the commands that change a channel (subscribe, unsubscribe, pause, resume), shown only to members with Manage Channels; re-run discord register after changing it. Unset: everything under /directory.',
    example: 'directory-admin',
    schema: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[-_'\p{L}\p{N}]{1,32}$/u, { error: "a command name: 1 to 32 letters, digits, - _ or '" })
      .refine((name) => name !== 'directory', { error: 'a name other than directory (the main command)' })
      .optional(),
  },
  {
    name: 'DISCORD_CLIENT_SECRET',
    group: 'Discord',
    description:
      "The application's OAuth2 client secret (Developer Portal, OAuth2); with PANEL_URL, people sign in to the control panel with Discord.",
    secret: true,
    schema: optionalString,
  },
  {
    name: 'PANEL_URL',
    group: 'Panel',
    description:
      'Where the control panel is reached from outside (https://…, no path): Slack and Discord send people back to <PANEL_URL>/signin/slack/callback and /signin/discord/callback after sign-in. Unset outside the sandbox: the panel has no sign-in and / says so.',
    example: 'https://directory-bot.example.com',
    schema: httpUrl(),
  },
  {
    name: 'PANEL_SESSION_SECRET',
    group: 'Panel',
    description:
      "Signs the control panel's session cookies: 32 or more random characters, required with PANEL_URL. A comma list rotates it: the first signs, every one is accepted.",
    secret: true,
    schema: commaList.refine((list) => list.every((item) => item.length >= 32), {
      error: '32 or more characters (each, in a list)',
    }),
  },
  {
    name: 'PANEL_OPERATOR_IDS',
    group: 'Panel',
    description:
      'Comma-separated platform:user ids (slack:U0123ABCD, discord:112233445566778899) who see every installation in the control panel, not only their own workspaces.',
    example: 'slack:U0123ABCD',
    schema: commaList.refine((list) => list.every((item) => /^(slack|discord):[A-Za-z0-9]+$/.test(item)), {
      error: 'a list of slack:<user id> or discord:<user id>',
    }),
  },
  {
    name: 'WEBHOOK_<NAME>_URL',
    group: 'Webhooks',
    description:
      'The URL of the webhook named webhook:<name> in SUBSCRIPTIONS (NAME upper-case, dashes as _: webhook:team-news reads WEBHOOK_TEAM_NEWS_URL). A Discord, Slack or Mattermost incoming webhook or a Teams Workflows webhook is recognised from its URL; any other https URL is a generic JSON webhook and needs WEBHOOK_<NAME>_SECRET (docs/webhooks.md).',
    example: 'https://discord.com/api/webhooks/112233445566778899/…',
    secret: true,
    pattern: /^WEBHOOK_[A-Z0-9_]+_URL$/,
    schema: webhookUrl(),
  },
  {
    name: 'WEBHOOK_<NAME>_SECRET',
    group: 'Webhooks',
    description:
      'Signing secret of the generic JSON webhook <name>: every request carries an HMAC-SHA256 of its timestamp and body under it, for the receiver to check. At least 32 characters (openssl rand -hex 32).',
    secret: true,
    pattern: /^WEBHOOK_[A-Z0-9_]+_SECRET$/,
    schema: z.string().trim().min(32, { error: 'at least 32 characters (openssl rand -hex 32)' }),
  },
  {
    name: 'SANDBOX',
    group: 'Sandbox',
    description:
      'true: run the demo on purpose, the embedded emulator inventing data for the console and any configured Slack or Discord (DIRECTORY_BASE_URL must be unset). false: never (DIRECTORY_BASE_URL required). Unset: the sandbox runs when neither DIRECTORY_BASE_URL nor a platform is set.',
    example: 'true',
    schema: optionalBooleanFlag(),
  },
  {
    name: 'SANDBOX_ACTIVITY_PER_MIN',
    group: 'Sandbox',
    description: 'How many new items per minute the embedded emulator invents in sandbox mode.',
    defaultText: '12',
    schema: integer(12, 0, 6000),
  },
  {
    name: 'DYNO',
    group: 'Server',
    description: 'Set by Heroku; when present a file store triggers a warning (dyno disks are wiped daily).',
    schema: z.string().optional(),
  },
];
