import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function importSpecifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...text.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? '');
}

const COMPOSITION_ROOT = 'src/app/platforms.ts';

describe('the layering of DESIGN.md', () => {
  it('src/ never imports adapters/, except in the composition root', () => {
    const offenders = sourceFiles('src')
      .filter((file) => relative('.', file) !== COMPOSITION_ROOT)
      .flatMap((file) =>
        importSpecifiers(file)
          .filter((spec) => spec.includes('adapters/'))
          .map((spec) => `${relative('.', file)} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('each adapter imports only the core ports and never another adapter', () => {
    const offenders: string[] = [];
    for (const platform of readdirSync('adapters')) {
      for (const file of sourceFiles(join('adapters', platform))) {
        for (const spec of importSpecifiers(file)) {
          if (!spec.startsWith('.')) continue;
          const target = relative('.', join(file, '..', spec));
          const allowed = target.startsWith(join('adapters', platform)) || target === 'src/ports/index.js';
          if (!allowed) offenders.push(`${relative('.', file)} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no Slack or Discord library is imported by the core', () => {
    const offenders = sourceFiles('src')
      .filter((file) => relative('.', file) !== COMPOSITION_ROOT)
      .flatMap((file) =>
        importSpecifiers(file)
          .filter((spec) => /^(@slack\/|discord\.js|@discordjs\/|discord-api-types)/.test(spec))
          .map((spec) => `${relative('.', file)} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });
});
