import { createApp } from '../app/create-app.js';
import { createConsoleScreen, isInteractiveTerminal, processJobControl } from '../app/platforms.js';
import { wantsConsole } from '../app/sandbox.js';
import type { ProcessRole } from '../app/worker-wiring.js';
import { CONFIG_ERROR_EXIT_CODE, configProblems, loadConfig } from '../config/load-config.js';
import { isBotError } from '../errors.js';
import { createLogger } from '../observability/create-logger.js';
import type { Logger } from '../ports/index.js';
import { reportConfigProblems } from './cli-config.js';
import { handleHelpOnly } from './io.js';
import { createPromptLogging } from './prompt-logging.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot start

Runs the bot: HTTP server on $PORT, feed polling and delivery, and the chat adapters whose
credentials are set. With no configuration at all it runs in sandbox mode: an embedded
directory emulator with live activity, the console adapter and the sandbox's own SQLite
store (./data/sandbox.sqlite), started afresh each run. Slack or Discord without
DIRECTORY_BASE_URL is a configuration error; SANDBOX=true runs the demo into them on purpose.
On a terminal it offers a directory> prompt ("exit" leaves) whenever it is the foreground job
(Ctrl-Z, bg and fg work as for any program, under npm too) and shows only warnings, with the
full logs in data/directory-bot.log unless LOG_LEVEL is set; behind a pipe it runs without a
prompt, logs everything to stdout, and stops cleanly when the reader of stdout goes away.
All settings are environment variables; see .env.example.`;

const WORKER_USAGE = `Usage: directory-bot worker

Runs a delivery worker only (ADR 005): it takes deliveries from the shared queue in Redis and
posts them, one message at a time per channel across every worker, paced by limits all workers
share. It does not poll and opens no Discord gateway; "directory-bot start" (the web process)
polls and answers. With PORT set it serves its probes there: /healthz, /readyz (503 until its
Redis, its BullMQ worker and its chat adapters are ready, and while Redis is lost) and /metrics,
for Kubernetes, Fly or Render; with PORT unset (Heroku's worker dynos) it binds nothing. Needs a
Redis store (REDIS_URL) with maxmemory-policy noeviction; on SQLite or PostgreSQL run
"directory-bot start" alone. Scale with the platform (Procfile "worker:" line; heroku ps:scale
worker=N).`;

const CANNOT_START = 'directory-bot cannot start';

/** Two SIGINTs closer than this are one Ctrl-C delivered twice (to the job and through npm). */
const SAME_SIGNAL_MS = 1000;

export const startCommand: Subcommand = botCommand('start');

/** `directory-bot worker`: a delivery worker process (Procfile `worker:`). */
export const workerCommand: Subcommand = botCommand('worker');

function botCommand(role: ProcessRole): Subcommand {
  const usage = role === 'worker' ? WORKER_USAGE : USAGE;
  return {
    name: role,
    summary: role === 'worker' ? 'Run a delivery worker only (Redis store).' : 'Run the bot (the default).',
    usage,
    async run(argv, io) {
      const finished = handleHelpOnly(argv, io, usage);
      if (finished !== undefined) return finished;

      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig();
      } catch (error) {
        const problems = configProblems(error);
        if (problems === undefined) throw error;
        return reportConfigProblems(io, CANNOT_START, problems);
      }

      let requestStop: (reason: string) => void = () => {};
      // A reader of stdout that went away (`| head -50` has its lines) is the end of the run, as a
      // closed pipe ends any Unix program, but cleanly: the bot stops as on SIGTERM. Mid-shutdown
      // (`| tee log` killed along with the job) it must not crash it either: the lines are lost,
      // the work is not.
      process.stdout.on('error', (error: NodeJS.ErrnoException) => {
        ignoreLostReader(error);
        requestStop('stdout closed');
      });
      process.stderr.on('error', ignoreLostReader);

      // A prompt only for a person at a terminal: with a pipe on either side a script or a log
      // collector is attached. A background job (`npm start &`) gets its prompt when `fg` makes it
      // the foreground job (see adapters/console/job-control.ts).
      const prompt = role === 'start' && wantsConsole(config) && isInteractiveTerminal();
      const screen = prompt ? createConsoleScreen() : undefined;
      let logger: Logger;
      let logFile: string | undefined;
      if (screen !== undefined) {
        ({ logger, logFile } = createPromptLogging(config, (text) => screen.write(text)));
      } else {
        logger = createLogger({
          level: config.server.logLevel,
          format: config.server.logFormat,
          secrets: config.secrets,
        });
      }
      const app = createApp(config, {
        logger,
        role,
        ...(screen !== undefined
          ? {
              consoleInput: process.stdin,
              consoleScreen: screen,
              consoleJobControl: processJobControl,
              ...(logFile === undefined ? {} : { logFile }),
            }
          : {}),
        onConsoleClosed: () => requestStop('console input closed'),
      });
      let stopping: Promise<void> | undefined;
      const stop = (signal: string) => {
        if (stopping) return;
        logger.info({ signal }, 'shutting down: finishing in-flight work');
        const deadline = setTimeout(() => {
          logger.error(
            { timeoutMs: config.server.shutdownTimeoutMs },
            'shutdown took too long; exiting anyway',
          );
          process.exit(1);
        }, config.server.shutdownTimeoutMs);
        deadline.unref();
        stopping = app.stop().then(
          () => {
            logger.info('stopped cleanly');
            // At a prompt, info lines go to the log file; the person still sees that it is over.
            screen?.write('The bot has stopped.\n');
            clearTimeout(deadline);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'error while stopping');
            process.exitCode = 1;
          },
        );
      };
      const stopped = new Promise<void>((resolveStopped) => {
        requestStop = (reason) => {
          stop(reason);
          void stopping?.then(resolveStopped);
        };
        // Listen for good, not once: `timeout`, npm and shells often send a signal twice (to the
        // process and to its group), and with no listener left the second one would kill the bot
        // mid-shutdown. A repeated SIGTERM waits for the shutdown under way; a second Ctrl-C means
        // "now", unless it is the same Ctrl-C arriving twice: the terminal signals the whole job,
        // and npm passes its copy on to the bot a moment later.
        process.on('SIGTERM', () => requestStop('SIGTERM'));
        let lastSigint = 0;
        process.on('SIGINT', () => {
          const now = Date.now();
          const repeat = now - lastSigint < SAME_SIGNAL_MS;
          lastSigint = now;
          if (stopping !== undefined && !repeat) process.exit(130);
          requestStop('SIGINT');
        });
      });

      try {
        await app.start();
      } catch (error) {
        // Problems the operator fixes in the configuration get a line that says what to do, not a
        // stack trace: a token the platform refused is as much a bad value as PORT=abc.
        const problems = configProblems(error);
        if (problems !== undefined) {
          reportConfigProblems(io, CANNOT_START, problems);
        } else if (isBotError(error, 'store_key_mismatch') || isBotError(error, 'store_secret_corrupt')) {
          io.stderr(`directory-bot cannot start: ${error.message}.`);
        } else if (isBotError(error, 'port_in_use')) {
          io.stderr(
            `directory-bot cannot start: PORT ${config.server.port} is in use; set PORT to a free port or stop the program listening on it.`,
          );
        } else {
          logger.fatal({ err: error }, 'start-up failed');
        }
        await app.stop().catch(() => {});
        // A wrong STORE_ENCRYPTION_KEY is fixed in the configuration like any bad value.
        const isConfiguration =
          isBotError(error, 'config_invalid') || isBotError(error, 'store_key_mismatch');
        return isConfiguration ? CONFIG_ERROR_EXIT_CODE : 1;
      }
      await stopped;
      const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
      // Shutdown is complete; a client still retrying a dead connection must not keep the
      // process alive past the platform's kill deadline.
      setTimeout(() => process.exit(code), 200).unref();
      return code;
    },
  };
}

function ignoreLostReader(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
  throw error;
}
