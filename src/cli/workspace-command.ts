import { parseArgs } from 'node:util';
import { storeNamespace } from '../app/sandbox.js';
import { openWorkerDeliveries } from '../app/worker-wiring.js';
import { messageOf, UsageError } from '../errors.js';
import type { BotStore } from '../store/index.js';
import { ACTIVE_DIRECTORY_KEY, createStore, directoryKeys } from '../store/index.js';
import {
  exportWorkspace,
  type ForgetReport,
  forgetWorkspace,
  parseWorkspaceRef,
  type WorkspaceDeps,
  type WorkspaceRef,
} from '../workspaces/index.js';
import { loadConfigOrReport } from './cli-config.js';
import { type CliIo, USAGE_EXIT_CODE } from './io.js';
import type { Subcommand } from './subcommand.js';

const EXPORT_USAGE = `Usage: directory-bot workspace export <slack:TEAM_ID | discord:SERVER_ID>

Prints, as JSON, everything the configured store (STORE_URL) holds about one Slack workspace
or Discord server: its subscriptions and their filters, queued deliveries (the outbox's and,
on Redis, the delivery workers' queues and the messages they gave up on), the keys of its
delivery ledger, and its Slack installation with every token replaced by a placeholder.
See docs/privacy.md.`;

const FORGET_USAGE = `Usage: directory-bot workspace forget <slack:TEAM_ID | discord:SERVER_ID> [--dry-run]

Deletes everything the configured store (STORE_URL) holds about one Slack workspace or Discord
server (what "workspace export" prints) and says how much of each kind went, the delivery
workers' queued and dead messages of its channels included (Redis). Stop the bot first: a
running bot keeps its queued deliveries in memory and may write them back.

  --dry-run    list what would be deleted and delete nothing
  --help, -h   show this help`;

export const workspaceExportCommand: Subcommand = {
  name: 'workspace export',
  summary: 'Print everything stored about one workspace or server, as JSON (no secrets).',
  usage: EXPORT_USAGE,
  run: (argv, io) =>
    withWorkspace(argv, io, 'workspace export', EXPORT_USAGE, {}, async (deps, ref) => {
      io.stdout(JSON.stringify(await exportWorkspace(deps, ref), null, 2));
    }),
};

export const workspaceForgetCommand: Subcommand = {
  name: 'workspace forget',
  summary: 'Delete everything stored about one workspace or server (--dry-run to list it).',
  usage: FORGET_USAGE,
  run: (argv, io) =>
    withWorkspace(
      argv,
      io,
      'workspace forget',
      FORGET_USAGE,
      { 'dry-run': { type: 'boolean' } },
      async (deps, ref, values) => {
        if (await pollerRunning(deps.store))
          io.stderr(
            'Warning: a bot is running on this store; stop it so it cannot write queued deliveries back.',
          );
        printReport(await forgetWorkspace(deps, ref, { dryRun: values['dry-run'] === true }), io);
      },
    ),
};

type Options = Record<string, { type: 'boolean' }>;

/** Parses `<platform:id>` and the options, opens the bot's store, runs `action`, closes it. */
async function withWorkspace(
  argv: string[],
  io: CliIo,
  name: string,
  usage: string,
  options: Options,
  action: (deps: WorkspaceDeps, ref: WorkspaceRef, values: Record<string, unknown>) => Promise<void>,
): Promise<number> {
  let ref: WorkspaceRef;
  let values: Record<string, unknown>;
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    values = parsed.values;
    if (values['help']) {
      io.stdout(usage);
      return 0;
    }
    const [target, ...extra] = parsed.positionals;
    if (target === undefined)
      throw new UsageError('Name the workspace: slack:<team id> or discord:<server id>.');
    if (extra.length > 0) throw new UsageError(`One workspace at a time; unexpected "${extra.join(' ')}".`);
    ref = parseWorkspaceRef(target);
  } catch (error) {
    io.stderr(messageOf(error));
    io.stderr(usage);
    return USAGE_EXIT_CODE;
  }
  const config = loadConfigOrReport(io, `directory-bot ${name}`);
  if (typeof config === 'number') return config;
  // The namespace the bot itself uses with this configuration (the sandbox has its own).
  const store = createStore({ url: config.store.url, ...storeNamespace(config) });
  // On Redis, the delivery workers' keys beside the store's (their queued and dead messages).
  const workers = openWorkerDeliveries(config);
  try {
    await store.ping(5000);
    await action(
      { store, ...(workers === undefined ? {} : { workerDeliveries: workers.deliveries }) },
      ref,
      values,
    );
    return 0;
  } catch (error) {
    io.stderr(messageOf(error));
    return 1;
  } finally {
    workers?.close();
    await store.close().catch(() => {});
  }
}

/** Whether a bot holds the poller lease of the directory the store last polled. */
async function pollerRunning(store: BotStore): Promise<boolean> {
  const directoryId = await store.keyv.get<string>(ACTIVE_DIRECTORY_KEY);
  if (directoryId === undefined) return false;
  return (await store.leases.holder(directoryKeys(directoryId).pollerLease)) !== undefined;
}

function printReport(report: ForgetReport, io: CliIo): void {
  const { counts } = report;
  io.stdout(
    report.dryRun
      ? `Dry run: would delete from ${report.workspace} (nothing was deleted):`
      : `Deleted from ${report.workspace}:`,
  );
  io.stdout(`  subscriptions       ${counts.subscriptions}`);
  io.stdout(`  reminders           ${counts.reminders}`);
  io.stdout(`  queued deliveries   ${counts.queuedDeliveries}`);
  io.stdout(`  dead deliveries     ${counts.deadDeliveries}`);
  io.stdout(`  delivery ledger     ${counts.deliveryLedger}`);
  io.stdout(`  delivery log pages  ${counts.deliveryLog}`);
  io.stdout(`  held by schedules   ${counts.heldItems}`);
  io.stdout(`  installations       ${counts.installations}`);
  if (report.sharedChannels.length > 0)
    io.stdout(`Kept for another workspace that subscribes them too: ${report.sharedChannels.join(', ')}`);
  if (report.dryRun && report.keys.length > 0) {
    io.stdout('Store keys:');
    for (const key of report.keys) io.stdout(`  ${key}`);
  }
}
