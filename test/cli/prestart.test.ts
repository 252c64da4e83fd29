import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/temp-dir.js';

const run = promisify(execFile);
const temp = makeTempDir('prestart-');
afterAll(() => temp.cleanup());

const project = join(temp.path, 'project');
const entry = join(project, 'dist', 'src', 'cli', 'main.js');
const source = join(project, 'src', 'cli', 'main.ts');
const marker = join(project, 'build-ran');

/**
 * A copy of the project's start-up wiring (its real `prestart` script and the files it runs)
 * in a throwaway folder whose `build` only leaves a marker, so the test sees whether
 * `npm run prestart` decided to build without compiling anything.
 */
function setUpProject(): void {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(join(project, 'src', 'cli'), { recursive: true });
  cpSync(resolve('scripts'), join(project, 'scripts'), { recursive: true });
  const realScripts = JSON.parse(readFileSync(resolve('package.json'), 'utf8')).scripts as Record<
    string,
    string
  >;
  const build = `node -e "require('fs').writeFileSync('build-ran', 'yes')"`;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'prestart-probe',
      private: true,
      scripts: { prestart: realScripts.prestart, build },
    }),
  );
  writeFileSync(source, 'export {};\n');
}

function writeBuild(): void {
  mkdirSync(join(project, 'dist', 'src', 'cli'), { recursive: true });
  writeFileSync(entry, '');
}

/** Sets a file's modification time `secondsAgo` before now. */
function age(path: string, secondsAgo: number): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, when, when);
}

async function prestart(): Promise<{ built: boolean; stderr: string }> {
  const { stderr } = await run('npm', ['run', '--silent', 'prestart'], { cwd: project });
  return { built: existsSync(marker), stderr };
}

describe('npm start’s prestart step', () => {
  beforeEach(setUpProject);

  it('builds when dist/ is missing', async () => {
    const result = await prestart();
    expect(result.built).toBe(true);
    expect(result.stderr).toContain('dist/src/cli/main.js is missing');
  });

  it('rebuilds when a source file is newer than dist/', async () => {
    writeBuild();
    age(entry, 120);
    age(source, 60);
    const result = await prestart();
    expect(result.built).toBe(true);
    expect(result.stderr).toContain('src changed since the last build');
  });

  it('starts without building when dist/ is newer than every source file', async () => {
    age(source, 120);
    writeBuild();
    expect((await prestart()).built).toBe(false);
  });
});
