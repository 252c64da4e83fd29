import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/longest-first-sequencer.js';

/**
 * The e2e project: tests that run the bot or a tool as a child process (spawned CLI, SIGKILL,
 * a private redis-server restarted under it, tmux terminals), the end-to-end platform
 * pipelines, and the few in-process whole-system runs that take many seconds. Each costs
 * seconds to minutes of process start-up and real waiting; everything else runs in-process in
 * the unit project, the inner loop (`npm run test:unit`, about a minute of CPU). A new test
 * that spawns a process, drives a terminal or runs the whole app belongs on this list.
 */
const E2E = [
  'test/e2e/**/*.test.ts', // whole-platform pipelines (emulator → engine → fake Slack/Discord) and the newcomer's tmux session
  'test/cli/cli.test.ts', // the CLI as a child process
  'test/cli/prestart.test.ts', // runs scripts/build-if-stale.mjs and tsc in a scratch copy
  'test/cli/sandbox-guard.test.ts', // the bot as a child process, refused or killed
  'test/cli/start-up-errors.test.ts', // the bot as a child process: exit codes, refused tokens (the directory's too, later), SIGKILL
  'test/cli/store-encryption.test.ts', // the bot and store rotate-key as child processes: exit codes for the store key
  'test/cli/terminal.test.ts', // the bot in a tmux terminal with job control
  'test/cli/npm-process-tree.test.ts', // npm start and npm run dev themselves in a tmux terminal: job control, signals, pipes
  'test/engine/redis-restart.test.ts', // a private redis-server restarted under a running bot
  'test/store/store-contract.test.ts', // every store backend, on real Redis and PostgreSQL servers
  'test/store/redis-key-layout.test.ts', // raw Redis keys of both layouts and their migration, on a real Redis
  'test/workspaces/workspace-data.test.ts', // one workspace's data on real Redis and PostgreSQL servers
  'test/cli/workspace-command.test.ts', // directory-bot workspace as a child process, on every store
  'test/cli/webhook-command.test.ts', // directory-bot webhook as a child process, the URL on stdin
  'test/cli/deliveries-command.test.ts', // directory-bot deliveries dead as a child process, on a real Redis
  'test/adapters/slack/tokens-at-rest.test.ts', // raw dumps of every store backend after a Slack install
  'test/engine/sigkill.test.ts', // SIGKILL at random moments, 20 restarts
  'test/engine/sigkill-threads.test.ts', // SIGKILL while threading comments on a fake Discord, 12 restarts
  'test/engine/sigkill-digest.test.ts', // SIGKILL around hourly digests' slots (libfaketime), 6 slots
  'test/engine/sigkill-edits.test.ts', // the compiled bot SIGKILLed while it owes edits, 8 trials
  'test/real-processes.test.ts', // every process launch, killed and reaped
  'test/docs/docs.test.ts', // runs every CLI command the docs show
  'test/emulator/cli.test.ts', // the emulator CLI as a child process
  'test/bench/ceiling.test.ts', // a benchmark's ceiling, measured for real
  // In-process, but whole-system runs on the real clock, each many seconds: the composed app
  // (sandbox prompt, state across restarts, readiness with the bot as a child process), the
  // whole engine against the emulator over HTTP (the failure table in the README; alone it
  // was half the unit project's time), a simulated directory's activity delivered end to end,
  // two instances and two versions sharing a store (lease TTLs that must run out), and a scan
  // of every file in the repo.
  'test/app/**/*.test.ts',
  'test/engine/engine.test.ts',
  'test/engine/activity.test.ts',
  'test/engine/two-instances.test.ts',
  'test/engine/upgrade.test.ts',
  'test/self-contained.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three forks on CI's two cores: the e2e files mostly wait (child processes, servers, real
    // clocks), so a suite used 0.8 of a core with two; three keep both cores busy without
    // starving the tests with deadlines. The longest files start first (longest-first-sequencer.ts).
    pool: 'forks',
    maxWorkers: 3,
    sequence: { sequencer: LongestFirstSequencer },
    // `npm test` runs both projects; `npm run test:unit` only the first.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...E2E],
          // One module graph per worker instead of per file: importing the app anew for each
          // of ~70 files cost about three times the CPU of the tests themselves. Unit tests
          // share no mutable module state (fake clocks are injected, not installed globally).
          isolate: false,
        },
      },
      {
        extends: true,
        // Child processes run the compiled CLI (test/support/built-cli.ts): build it first.
        test: { name: 'e2e', include: E2E, globalSetup: ['test/support/build-before-tests.ts'] },
      },
    ],
  },
});
