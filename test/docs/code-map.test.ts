import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const MAP = readFileSync(join(ROOT, 'docs/code-map.md'), 'utf8');

/** Every repository path the page names in backticks, e.g. `src/delivery/outbox.ts`. */
function namedPaths(text: string): string[] {
  const paths = [...text.matchAll(/`((?:src|adapters|test|docs)\/[^`\s]+)`/g)].map((m) => m[1]!);
  return [...new Set(paths)];
}

/** Relative links to other docs, e.g. [001](adr/001-one-poller-per-store.md). */
function linkedDocs(text: string): string[] {
  return [...text.matchAll(/\]\(((?!https?:|#)[^)#]+)(?:#[^)]*)?\)/g)].map((m) => join('docs', m[1]!));
}

describe('docs/code-map.md', () => {
  it('names only files that exist', () => {
    const paths = namedPaths(MAP);
    // The six questions and the message's life name dozens of files: an empty scan proves nothing.
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('links only docs that exist', () => {
    const links = linkedDocs(MAP);
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('answers each of the six questions with a file', () => {
    const rows = MAP.split('\n').filter((line) => /^\| (Where|How) .*\? \|/.test(line));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(namedPaths(row).length + (row.includes('(#') ? 1 : 0)).toBeGreaterThan(0);
  });

  it('sees a path that does not exist (so the check can fail)', () => {
    expect(
      namedPaths('see `src/no-such-folder/nothing.ts`').filter((p) => !existsSync(join(ROOT, p))),
    ).toEqual(['src/no-such-folder/nothing.ts']);
  });
});
