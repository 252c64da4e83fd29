import { openWorkerQueue } from '../app/worker-wiring.js';
import { messageOf } from '../errors.js';
import { formatDuration } from '../schedule/index.js';
import { loadConfigOrReport } from './cli-config.js';
import { type CliIo, handleHelpOnly, USAGE_EXIT_CODE } from './io.js';
import type { Subcommand } from './subcommand.js';

const DEAD_USAGE = `Usage: directory-bot deliveries dead

Lists the deliveries the workers gave up on (ADR 005): each message that failed every attempt
(about three hours of backing off), with its id, channel, why, when it died and when it goes.
A dead delivery is kept DEDUPE_TTL_DAYS (default 30 days) after it died, as long as the
delivered ledger a replay checks, then Redis deletes it. Redis stores with delivery workers
only; run with the bot's configuration (REDIS_URL or STORE_URL).

  --help, -h   show this help`;

const REPLAY_USAGE = `Usage: directory-bot deliveries replay <id>... | --all

Queues dead deliveries again (ids as "deliveries dead" lists them, or --all), at the back of
their channel's queue, as fresh attempts. Each is checked against the delivered ledger before
it is posted, so a message that did reach its channel is not posted twice. Safe with the bot
running.

  --all        every dead delivery
  --help, -h   show this help`;

const NO_WORKERS =
  'No delivery workers on this store: dead deliveries exist only with a Redis store (REDIS_URL) and DELIVERY_WORKERS=auto; elsewhere a message given up on is logged and counted (/directory why shows it).';

/** `directory-bot deliveries dead`: what the workers gave up on. */
export const deliveriesDeadCommand: Subcommand = {
  name: 'deliveries dead',
  summary: 'List the deliveries the workers gave up on (Redis).',
  usage: DEAD_USAGE,
  async run(argv: string[], io: CliIo) {
    const finished = handleHelpOnly(argv, io, DEAD_USAGE);
    if (finished !== undefined) return finished;
    return withQueue(io, 'directory-bot deliveries dead', async ({ queue }) => {
      const dead = await queue.dead();
      if (dead.length === 0) {
        io.stdout('No dead deliveries.');
        return 0;
      }
      const now = Date.now();
      for (const delivery of dead) io.stdout(describeDeadDelivery(delivery, now, queue.deadRetentionMs));
      io.stdout(
        `${dead.length} dead deliveries; "directory-bot deliveries replay <id>|--all" queues them again.`,
      );
      return 0;
    });
  },
};

/**
 * One dead delivery as `deliveries dead` lists it: id, title, reason, then when it died, how long
 * ago, and when the retention deletes it (all in UTC).
 */
export function describeDeadDelivery(
  // A dead delivery's fields this line shows (src/cli reaches the workers only through src/app).
  dead: { id: string; at: number; reason: string; entry: { itemKey: string; message: { title?: string } } },
  now: number,
  retentionMs: number,
): string {
  const { id, at, reason, entry } = dead;
  const died = new Date(at).toISOString();
  const goes = new Date(at + retentionMs).toISOString();
  return `${id}\t${entry.message.title ?? entry.itemKey}\t${reason}\tdied ${died} (${roughAge(now - at)} ago), deleted ${goes}`;
}

/** `3 d 4 h`, `5 h 10 min`, `40 s`: how long ago, roughly. */
function roughAge(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  if (days === 0) return formatDuration(ms);
  return `${days} d ${Math.floor((ms % 86_400_000) / 3_600_000)} h`;
}

/** `directory-bot deliveries replay`: queues dead deliveries again. */
export const deliveriesReplayCommand: Subcommand = {
  name: 'deliveries replay',
  summary: 'Queue dead deliveries again (Redis).',
  usage: REPLAY_USAGE,
  async run(argv: string[], io: CliIo) {
    const finished = handleHelpOnly(argv, io, REPLAY_USAGE);
    if (finished !== undefined) return finished;
    const all = argv.includes('--all');
    const ids = argv.filter((arg) => arg !== '--all');
    if (all === ids.length > 0) {
      io.stderr(REPLAY_USAGE);
      return USAGE_EXIT_CODE;
    }
    return withQueue(io, 'directory-bot deliveries replay', async ({ queue, drains }) => {
      const before = await queue.deadCount();
      const destinations = await queue.replay(all ? 'all' : new Set(ids));
      await drains.add(destinations);
      const replayed = before - (await queue.deadCount());
      io.stdout(`Queued ${replayed} dead deliveries again, to ${destinations.length} channel(s).`);
      return 0;
    });
  },
};

async function withQueue(
  io: CliIo,
  command: string,
  work: (open: NonNullable<ReturnType<typeof openWorkerQueue>>) => Promise<number>,
): Promise<number> {
  const config = loadConfigOrReport(io, command);
  if (typeof config === 'number') return config;
  const open = openWorkerQueue(config);
  if (open === undefined) {
    io.stdout(NO_WORKERS);
    return 0;
  }
  try {
    return await work(open);
  } catch (error) {
    io.stderr(`${command} failed: ${messageOf(error)}`);
    return 1;
  } finally {
    await open.close();
  }
}
