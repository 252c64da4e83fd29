import { spawnSync } from 'node:child_process';

/**
 * Global setup of the e2e project: builds dist/ when it is missing or older than any source
 * file (the same check `npm start` makes), so a child process never runs yesterday's code.
 */
export default function buildBeforeTests(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  if (build.status !== 0)
    throw new Error(`building dist/ for the child-process tests failed (exit ${build.status})`);
}
