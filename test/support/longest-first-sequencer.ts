import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first, as measured on CI's 2-core machine (seconds, alone):
 * each mostly waits on real processes and real clocks, so they start first and overlap each
 * other instead of starting last and making the run's tail. On a fresh clone (CI) vitest has no
 * timings from an earlier run and orders files by size, which put the 85 s SIGKILL trial last.
 */
export const LONGEST_FIRST = [
  'test/engine/sigkill-digest.test.ts', // ~90 s: six hourly slots, a kill near each
  'test/e2e/newcomer.test.ts', // ~90 s: a first look of 75 s, then a second start
  'test/engine/sigkill.test.ts', // ~85 s: 20 restarts at random moments
  'test/cli/start-up-errors.test.ts', // ~45 s: the bot refused, one child process per case
  'test/app/sandbox-state.test.ts', // ~40 s: the sandbox across restarts
  'test/engine/sigkill-threads.test.ts', // ~40 s: 12 restarts while threading
  'test/engine/sigkill-edits.test.ts', // ~33 s: 8 trials with owed edits
  'test/e2e/workers.test.ts', // ~25 s: worker processes killed and scaled
  'test/cli/npm-process-tree.test.ts', // ~25 s: npm in a terminal
  'test/cli/cli.test.ts', // ~25 s
  'test/cli/terminal.test.ts', // ~24 s
  'test/app/sandbox.test.ts', // ~22 s
  'test/cli/webhook-command.test.ts', // ~20 s
];

/** Vitest's order (failed first, then by an earlier run's timings, else by size), with the known long files first. */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}
