import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Enforces docs/architecture.md: the allowed imports between folders come from its table, and the
 * long-file exceptions from its list, so the page and the tree cannot drift apart.
 */

const ROOT = join(import.meta.dirname, '..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const LINE_LIMIT = 300;
/** The one core file that may import adapters/ (and through them the platform libraries). */
const WIRING_FILE = 'src/app/platforms.ts';
const PLATFORM_LIBRARIES = /^(@slack\/|discord\.js|@discordjs\/|discord-api-types)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `import … from 'x'`, `export … from 'x'`, a bare `import 'x'`, and `import('x')`. */
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importSpecifiers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** `src/engine/engine.ts` → `src/engine`; a root file such as `src/errors.ts` is its own unit. */
function unitOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : file;
}

interface Edge {
  from: string;
  to: string;
  where: string;
}

const FILES = [...sourceFiles('src'), ...sourceFiles('adapters')];

const EDGES: Edge[] = FILES.flatMap((file) =>
  importSpecifiers(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const target = relative(ROOT, join(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts');
      return { from: unitOf(file), to: unitOf(target), where: `${file} imports ${spec}` };
    })
    .filter((edge) => edge.from !== edge.to),
);

/** Rows of the doc's folder table: | `src/engine/` | owns … | `src/feeds/`, `src/delivery/` | */
function allowedImports(): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const line of DOC.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const unit = /^`((?:src|adapters)\/[^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (unit === undefined || cells.length < 5) continue;
    const allowed = [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''));
    table.set(unit.replace(/\/$/, ''), new Set(allowed));
  }
  return table;
}

/** Root files any folder may import, because they import nothing of ours. */
function sharedLeaves(): string[] {
  const paragraph = DOC.split('\n\n').find((part) => part.startsWith('Shared leaves')) ?? '';
  return [...paragraph.matchAll(/`(src\/[^`]+\.ts)`/g)].map((m) => m[1]!);
}

function longFileExceptions(): string[] {
  const section = DOC.split(/\n## /).find((part) => part.startsWith('Long files')) ?? '';
  return [...section.matchAll(/^- `([^`]+\.ts)`/gm)].map((m) => m[1]!);
}

function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) next.set(from, (next.get(from) ?? new Set()).add(to));
  const found: string[][] = [];
  const visit = (unit: string, path: string[]): void => {
    for (const target of next.get(unit) ?? []) {
      const at = path.indexOf(target);
      if (at >= 0) found.push([...path.slice(at), target]);
      else visit(target, [...path, target]);
    }
  };
  for (const unit of next.keys()) visit(unit, [unit]);
  return found;
}

describe('docs/architecture.md, enforced', () => {
  const table = allowedImports();

  it('sees the imports it checks (so an empty scan cannot pass)', () => {
    const seen = EDGES.map((edge) => edge.where);
    expect(seen).toContain('src/app/platforms.ts imports ../../adapters/slack/index.js');
    expect(seen).toContain('src/engine/engine.ts imports ../feeds/create-feeds.js');
    expect(EDGES.length).toBeGreaterThan(100);
    const loop: Edge[] = [
      { from: 'a', to: 'b', where: 'a imports b' },
      { from: 'b', to: 'c', where: 'b imports c' },
      { from: 'c', to: 'a', where: 'c imports a' },
    ];
    expect(cycles(loop)).not.toEqual([]);
    expect(cycles(loop.slice(0, 2))).toEqual([]);
  });

  it('documents every folder of src/ and adapters/', () => {
    const units = new Set(FILES.map(unitOf).filter((unit) => !unit.endsWith('.ts')));
    expect([...units].filter((unit) => !table.has(unit))).toEqual([]);
    expect([...table.keys()].filter((unit) => !units.has(unit) && !unit.endsWith('.ts'))).toEqual([]);
  });

  const leaves = sharedLeaves();

  it('names shared leaves that exist and import nothing of ours', () => {
    expect(leaves.length).toBeGreaterThan(0);
    expect(leaves.filter((leaf) => !FILES.includes(leaf))).toEqual([]);
    expect(EDGES.filter((edge) => leaves.includes(edge.from)).map((edge) => edge.where)).toEqual([]);
  });

  it('every import between folders is one the table allows', () => {
    const offenders = EDGES.filter((edge) => !leaves.includes(edge.to))
      .filter((edge) => {
        const allowed = table.get(edge.from);
        return allowed === undefined || !allowed.has(edge.to);
      })
      .map((edge) => edge.where);
    expect(offenders).toEqual([]);
  });

  it('no folder imports, directly or around a loop, a folder that imports it', () => {
    expect(cycles(EDGES)).toEqual([]);
  });

  it(`only ${WIRING_FILE} imports adapters/ or a Slack or Discord library from src/`, () => {
    const offenders = sourceFiles('src')
      .filter((file) => file !== WIRING_FILE)
      .flatMap((file) =>
        importSpecifiers(file)
          .filter((spec) => spec.includes('adapters/') || PLATFORM_LIBRARIES.test(spec))
          .map((spec) => `${file} imports ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('each adapter imports only src/ports/index.ts from the core, and never another adapter', () => {
    const offenders = EDGES.filter((edge) => edge.from.startsWith('adapters/'))
      .filter((edge) => !edge.where.endsWith('src/ports/index.js'))
      .map((edge) => edge.where);
    expect(offenders).toEqual([]);
  });

  it(`no source file is over ${LINE_LIMIT} lines, except the declarative tables the doc names`, () => {
    const exceptions = longFileExceptions();
    const lineCount = (file: string) => readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length;
    const long = FILES.filter((file) => lineCount(file) > LINE_LIMIT);
    expect(long.filter((file) => !exceptions.includes(file))).toEqual([]);
    // An exception that shrank below the limit (or moved) is stale: the doc must say so.
    expect(exceptions.filter((file) => !long.includes(file))).toEqual([]);
  });
});
