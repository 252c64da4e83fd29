import { resolve } from 'node:path';

/**
 * The compiled CLIs the child-process tests run: what `npm start` and the installed
 * `directory-bot` bin run, built once per test run by `build-before-tests.ts` (the e2e project's
 * global setup) when dist/ is missing or older than the sources. Running the build instead of
 * loading TypeScript through tsx in every child saves about a second and a half of CPU per
 * process started, and the tests start dozens.
 */
export const BUILT_BOT_CLI = resolve('dist/src/cli/main.js');
export const BUILT_EMULATOR_CLI = resolve('dist/src/emulator/cli-main.js');
