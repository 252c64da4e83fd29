import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { openWebhookAdmin, type WebhookAdmin, type WebhookListing } from '../app/webhook-admin.js';
import { CONFIG_ERROR_EXIT_CODE, configProblems } from '../config/load-config.js';
import { isBotError, messageOf } from '../errors.js';
import { createSilentLogger } from '../observability/create-logger.js';
import { loadConfigOrReport, reportConfigProblems } from './cli-config.js';
import { type CliIo, USAGE_EXIT_CODE } from './io.js';
import type { Subcommand } from './subcommand.js';

const ROUTE_HELP = `A route is what follows "=" in a SUBSCRIPTIONS entry: a feed and its options,
e.g. 'comments?keyword=ai&mention=role:112233445566778899' or 'posts?min-votes=50&format=compact'
(quote it for the shell). docs/webhooks.md lists the options.`;

const ADD_USAGE = `Usage: directory-bot webhook add <name> [<route>…] [--url-from-stdin] [--generate-secret]

Adds a webhook destination and its subscriptions. The URL is a secret: it is read from standard
input (never from the command line, where shell history and process lists would keep it) and
sealed in the store under STORE_ENCRYPTION_KEY. Its kind (Discord, Slack, Teams Workflows,
Mattermost) is recognised from the URL; any other https URL is a generic JSON webhook, whose
signing secret is read from the line after the URL, or made with --generate-secret and printed
once. Without --url-from-stdin, adds routes to a webhook already known.

  printf '%s\\n' "$WEBHOOK_URL" | npx directory-bot webhook add team-news --url-from-stdin posts

${ROUTE_HELP}

  --url-from-stdin    read the URL (and a JSON webhook's secret, on the next line) from stdin
  --generate-secret   a JSON webhook: make its signing secret and print it once
  --help, -h          show this help`;

const LIST_USAGE = `Usage: directory-bot webhook list

Lists every webhook (from WEBHOOK_<NAME>_URL variables and the store) with its kind, its URL with
the credential masked, and its subscriptions (paused ones with the reason).`;

const TEST_USAGE = `Usage: directory-bot webhook test <name>

Posts a test message to the webhook, paced and refused exactly as a delivery would be, and says
what the webhook answered. Exits 0 when it was delivered, 1 otherwise.`;

const REMOVE_USAGE = `Usage: directory-bot webhook remove <name>

Forgets a stored webhook and removes its subscriptions. A webhook from WEBHOOK_<NAME>_URL is
removed by unsetting the variable (and its SUBSCRIPTIONS entries).`;

interface Parsed {
  positionals: string[];
  values: Record<string, unknown>;
}

/** Runs one `webhook` subcommand over the configured store, turning problems into exit codes. */
async function withAdmin(
  argv: string[],
  io: CliIo,
  name: string,
  usage: string,
  options: Record<string, { type: 'boolean' }>,
  action: (admin: WebhookAdmin, parsed: Parsed) => Promise<number>,
): Promise<number> {
  let parsed: Parsed;
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.stdout(usage);
      return 0;
    }
    parsed = { positionals, values };
  } catch (error) {
    io.stderr(messageOf(error));
    io.stderr(usage);
    return USAGE_EXIT_CODE;
  }
  const heading = `directory-bot ${name}`;
  const config = loadConfigOrReport(io, heading);
  if (typeof config === 'number') return config;
  let admin: WebhookAdmin | undefined;
  try {
    admin = openWebhookAdmin(config, createSilentLogger());
    return await action(admin, parsed);
  } catch (error) {
    const problems = configProblems(error);
    if (problems !== undefined) return reportConfigProblems(io, heading, problems);
    if (isBotError(error, 'command_usage')) {
      io.stderr(`${heading}: ${error.message}.`);
      return USAGE_EXIT_CODE;
    }
    if (isBotError(error, 'store_key_mismatch') || isBotError(error, 'store_secret_corrupt')) {
      io.stderr(`${heading}: ${error.message}.`);
      return CONFIG_ERROR_EXIT_CODE;
    }
    throw error;
  } finally {
    await admin?.close();
  }
}

async function readLines(stdin: NodeJS.ReadableStream): Promise<string[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function describeSubscriptions(webhook: WebhookListing): string[] {
  if (webhook.subscriptions.length === 0) return ['    no subscriptions'];
  return webhook.subscriptions.map((s) => {
    const filters = JSON.stringify(s.filters) === '{}' ? '' : ` ${JSON.stringify(s.filters)}`;
    const mentions = s.mentions?.length
      ? ` pings ${s.mentions.map((m) => `${m.kind}:${m.id}`).join(', ')}`
      : '';
    const paused = s.paused ? ` — PAUSED: ${s.paused.reason}` : '';
    return `    ${s.id} ${s.feed}${filters}${mentions}${paused}`;
  });
}

/** `directory-bot webhook add|list|test|remove`: one module, four subcommands. */
export function createWebhookCommands(stdin: NodeJS.ReadableStream = process.stdin): Subcommand[] {
  const add: Subcommand = {
    name: 'webhook add',
    summary: 'Add a webhook (URL read from stdin, sealed in the store) and its subscriptions.',
    usage: ADD_USAGE,
    run: (argv, io) =>
      withAdmin(
        argv,
        io,
        'webhook add',
        ADD_USAGE,
        { 'url-from-stdin': { type: 'boolean' }, 'generate-secret': { type: 'boolean' } },
        async (admin, { positionals, values }) => {
          const [name, ...routes] = positionals;
          if (name === undefined) {
            io.stderr('directory-bot webhook add: name the webhook.');
            io.stderr(ADD_USAGE);
            return USAGE_EXIT_CODE;
          }
          let url: string | undefined;
          let secret: string | undefined;
          if (values['url-from-stdin'] === true) {
            [url, secret] = await readLines(stdin);
            if (url === undefined) {
              io.stderr('directory-bot webhook add: no URL on standard input.');
              return USAGE_EXIT_CODE;
            }
          }
          const generated = values['generate-secret'] === true && secret === undefined;
          if (generated) secret = randomBytes(32).toString('hex');
          const result = await admin.add({
            name,
            ...(url === undefined ? {} : { url }),
            ...(secret === undefined ? {} : { secret }),
            routes,
            by: 'cli',
          });
          const { webhook } = result;
          io.stdout(
            result.stored
              ? `Stored the ${webhook.kind} webhook "${webhook.name}" (${webhook.shown}), sealed.`
              : `The ${webhook.kind} webhook "${webhook.name}" (${webhook.shown}) is known: ${webhook.source === 'store' ? 'stored' : webhook.source}.`,
          );
          if (generated) io.stdout(`Its signing secret (shown once; give it to the receiver): ${secret}`);
          for (const s of result.subscriptions) io.stdout(`Subscribed it to ${s.feed}: ${s.id}.`);
          if (result.subscriptions.length === 0)
            io.stdout('No route given: it receives nothing until one is added.');
          return 0;
        },
      ),
  };
  const list: Subcommand = {
    name: 'webhook list',
    summary: 'List the webhooks (URLs masked) and their subscriptions.',
    usage: LIST_USAGE,
    run: (argv, io) =>
      withAdmin(argv, io, 'webhook list', LIST_USAGE, {}, async (admin) => {
        const webhooks = await admin.list();
        if (webhooks.length === 0) io.stdout('No webhooks. Add one: directory-bot webhook add --help');
        for (const webhook of webhooks) {
          io.stdout(`${webhook.name}  ${webhook.kind}  ${webhook.shown}  (${webhook.source})`);
          for (const line of describeSubscriptions(webhook)) io.stdout(line);
        }
        return 0;
      }),
  };
  const test: Subcommand = {
    name: 'webhook test',
    summary: 'Post a test message to a webhook and say what it answered.',
    usage: TEST_USAGE,
    run: (argv, io) =>
      withAdmin(argv, io, 'webhook test', TEST_USAGE, {}, async (admin, { positionals }) => {
        const [name] = positionals;
        if (name === undefined || positionals.length > 1) {
          io.stderr(TEST_USAGE);
          return USAGE_EXIT_CODE;
        }
        const outcome = await admin.test(name);
        if (outcome.status === 'delivered') {
          io.stdout(`Delivered a test message to "${name}".`);
          return 0;
        }
        io.stderr(`The test message to "${name}" was ${outcome.status} (${outcome.code}): ${outcome.reason}`);
        return 1;
      }),
  };
  const remove: Subcommand = {
    name: 'webhook remove',
    summary: 'Forget a stored webhook and its subscriptions.',
    usage: REMOVE_USAGE,
    run: (argv, io) =>
      withAdmin(argv, io, 'webhook remove', REMOVE_USAGE, {}, async (admin, { positionals }) => {
        const [name] = positionals;
        if (name === undefined || positionals.length > 1) {
          io.stderr(REMOVE_USAGE);
          return USAGE_EXIT_CODE;
        }
        const { webhook, subscriptions } = await admin.remove(name);
        io.stdout(`Removed the webhook "${webhook.name}" and ${subscriptions.length} subscription(s).`);
        return 0;
      }),
  };
  return [add, list, test, remove];
}
