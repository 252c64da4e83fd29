import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../../adapters/discord');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('adapters/discord import boundary', () => {
  it('imports nothing from src/ but the ports, and nothing from other adapters', () => {
    const offending: string[] = [];
    for (const file of sources(ROOT)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)) {
        const specifier = match[1]!;
        if (!specifier.startsWith('.')) continue;
        const ok = specifier.startsWith('./') || specifier === '../../src/ports/index.js';
        if (!ok) offending.push(`${file}: ${specifier}`);
      }
    }
    expect(sources(ROOT).length).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
