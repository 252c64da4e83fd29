#!/usr/bin/env node
// `npm start`'s prestart step: builds dist/ when it is missing or older than any source file,
// so an edit followed by `npm start` never runs yesterday's code. Plain JavaScript on purpose:
// it must run before anything is compiled, and without dev dependencies.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = join('dist', 'src', 'cli', 'main.js');
const SOURCE_DIRS = ['src', 'adapters'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json'];

/** Newest modification time (ms) of the files under `path`, or 0 when it does not exist. */
function newestMtime(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function staleReason() {
  const built = newestMtime(ENTRY);
  if (built === 0) return `${ENTRY} is missing`;
  const changed = [...SOURCE_DIRS, ...SOURCE_FILES].find((path) => newestMtime(path) > built);
  return changed === undefined ? undefined : `${changed} changed since the last build`;
}

const reason = staleReason();
if (reason !== undefined) {
  process.stderr.write(`Building: ${reason}.\n`);
  // `shell` lets the npm shim (npm.cmd on Windows) be found the way the user's shell finds it.
  const build = spawnSync('npm run build', { stdio: 'inherit', shell: true });
  process.exitCode = build.status ?? 1;
}
