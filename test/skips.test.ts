import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { programProblem, unavailable } from './support/required-tools.js';

const TEST_ROOT = fileURLToPath(new URL('.', import.meta.url));

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory())
      return entry.name === 'fixtures' || entry.name === 'bench' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('a suite that needs a tool the machine lacks', () => {
  const ci = process.env['CI'];
  afterEach(() => {
    if (ci === undefined) delete process.env['CI'];
    else process.env['CI'] = ci;
    vi.restoreAllMocks();
  });

  it('is skipped off CI, with the reason and how to install the tool printed', () => {
    delete process.env['CI'];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const problem = programProblem('directory-bot-no-such-program', ['-V'], 'apt-get install it');
    expect(unavailable('the imaginary suite', problem)).toBe(
      'directory-bot-no-such-program is not installed (apt-get install it)',
    );
    expect(warn).toHaveBeenCalledWith(
      '[skipped] the imaginary suite: directory-bot-no-such-program is not installed (apt-get install it)',
    );
  });

  it('fails in CI instead, so a missing tool never passes as a green run', () => {
    process.env['CI'] = 'true';
    const problem = programProblem('directory-bot-no-such-program', ['-V'], 'apt-get install it');
    expect(() => unavailable('the imaginary suite', problem)).toThrow(
      'the imaginary suite must run in CI: directory-bot-no-such-program is not installed',
    );
  });

  it('runs when the tool is there, saying nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(
      unavailable('the node suite', programProblem(process.execPath, ['--version'], 'n/a')),
    ).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('every skip in the suite', () => {
  /** The helpers that print why a suite is skipped (and fail in CI instead). */
  const REPORTING_HELPERS = /from '(\.\.\/|\.\/)+support\/(required-tools|backends|chromium)\.js'/;

  it('prints its reason: conditional skips only in files that use a reporting helper, and no unconditional ones', () => {
    const silent: string[] = [];
    const unconditional: string[] = [];
    for (const file of testFiles(TEST_ROOT)) {
      const source = readFileSync(file, 'utf8');
      const name = relative(TEST_ROOT, file);
      if (name === 'skips.test.ts') continue;
      if (/\.(skipIf|runIf)\(|\b(context|ctx)\.skip\(/.test(source) && !REPORTING_HELPERS.test(source))
        silent.push(name);
      if (/\b(describe|it|test)\.(skip|todo)\(/.test(source)) unconditional.push(name);
    }
    expect(silent).toEqual([]);
    expect(unconditional).toEqual([]);
  });
});
