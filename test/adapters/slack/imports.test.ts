import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../adapters/slack/', import.meta.url);

describe('adapters/slack imports', () => {
  it('reaches into the core only through src/ports/index.ts and never into other adapters', () => {
    const offending: string[] = [];
    for (const file of readdirSync(ROOT).filter((name) => name.endsWith('.ts'))) {
      const source = readFileSync(new URL(file, ROOT), 'utf8');
      for (const [, specifier] of source.matchAll(/from\s+'([^']+)'/g)) {
        if (specifier === undefined || !specifier.startsWith('.')) continue;
        const allowed = specifier === '../../src/ports/index.js' || /^\.\/[a-z0-9-]+\.js$/.test(specifier);
        if (!allowed) offending.push(`${file}: ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
