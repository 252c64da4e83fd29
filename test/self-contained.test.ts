import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeFilesToCheck, findOutsideReferences } from './support/outside-references.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('the test suite is self-contained', () => {
  it('no test, fake, support file, config, script or source file reads outside the repository', () => {
    const files = codeFilesToCheck(ROOT);
    const scanned = files.map((file) => relative(ROOT, file));
    // The files that once read the shared reference folder are among those checked.
    expect(scanned).toEqual(
      expect.arrayContaining([
        'test/fakes/discord/discord-spec.ts',
        'test/fakes/slack/slack-spec.ts',
        'test/adapters/slack/manifest.test.ts',
        'test/fixtures/platform/trim.ts',
        'src/version.ts',
        'scripts/build-if-stale.mjs',
        'vitest.config.ts',
      ]),
    );
    const outside = files.flatMap((file) => findOutsideReferences(ROOT, file, readFileSync(file, 'utf8')));
    expect(outside.map((r) => `${r.file}:${r.line} ${r.text} → ${r.target}`)).toEqual([]);
  });

  it('package.json scripts stay inside the repository', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const outside = Object.entries(pkg.scripts).filter(([, script]) =>
      /(?:^|[\s='"])(?:\.\.\/|\/work\/)/.test(script),
    );
    expect(outside).toEqual([]);
  });

  describe('the check itself', () => {
    // The samples live in text files: as literals in this file they would be reported by the scan above.
    const sample = (name: string) =>
      readFileSync(new URL(`fixtures/outside-references/${name}`, import.meta.url), 'utf8');
    /** Scans `source` as if it were the file at `path` (relative to the root); the lines reported. */
    const reportedLines = (path: string, source: string) =>
      findOutsideReferences(ROOT, join(ROOT, path), source).map((r) => r.line);

    it('reports every way of reaching outside: relative URLs and imports, machine paths, the reference folder, join/resolve', () => {
      const source = sample('reaches-outside.txt');
      const lines = source
        .trimEnd()
        .split('\n')
        .map((_, i) => i + 1);
      expect(lines.length).toBeGreaterThan(5);
      expect([...new Set(reportedLines('test/fakes/slack/fake.ts', source))]).toEqual(lines);
    });

    it('accepts what stays inside: imports, the root itself, system and route paths, comments', () => {
      expect(reportedLines('test/adapters/discord/x.test.ts', sample('stays-inside.txt'))).toEqual([]);
    });

    it('resolves against the file’s own folder, so the same literal is fine deeper down', () => {
      const source = "const up = new URL('../../../', import.meta.url);";
      expect(reportedLines('test/fakes/slack/fake.ts', source)).toEqual([]);
      expect(reportedLines('test/emulator/cli.test.ts', source)).toEqual([1]);
    });
  });
});
