import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Enforces docs/architecture.md: the allowed imports between folders come from its table, and the
 * long-file exceptions from its list, so the page and the tree cannot drift apart.
 */

const ROOT = join(import.meta.dirname, '..');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
/**
 * A guide, not a cliff: a file past this many lines of code (comments and blank lines not
 * counted) is reported with the reason docs/architecture.md gives for it; one without a reason
 * there fails, so the reason is written down rather than the file cut to fit.
 */
const SOFT_LINE_LIMIT = 400;
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

/** Imports between our own files, resolved to the file they name. */
const FILE_EDGES: { from: string; to: string }[] = FILES.flatMap((file) =>
  importSpecifiers(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({
      from: file,
      to: relative(ROOT, join(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts'),
    })),
);

/** Every strongly connected group of more than one file (Tarjan), each as its sorted file list. */
function fileCycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    const selfLoop = (next.get(file) ?? []).includes(file);
    if (group.length > 1 || selfLoop) found.push(group.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return found;
}

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

/** The "Long files" list: `- \`path\` — why it is long`. */
function longFileReasons(): Map<string, string> {
  const section = DOC.split(/\n## /).find((part) => part.startsWith('Long files')) ?? '';
  return new Map([...section.matchAll(/^- `([^`]+\.ts)` — (.+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Lines that are neither blank nor only a comment (`//`, or inside or around a block comment). */
function codeLines(file: string): number {
  let inBlock = false;
  let count = 0;
  for (const raw of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    const line = raw.trim();
    if (inBlock) {
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      inBlock = !line.includes('*/');
      continue;
    }
    count += 1;
  }
  return count;
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
    const fileLoop = loop.map(({ from, to }) => ({ from: `${from}.ts`, to: `${to}.ts` }));
    expect(fileCycles(fileLoop)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(fileCycles(fileLoop.slice(0, 2))).toEqual([]);
    expect(FILE_EDGES.length).toBeGreaterThan(1000);
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

  it('no file imports, directly or around a loop, a file that imports it (types included)', () => {
    expect(fileCycles(FILE_EDGES)).toEqual([]);
  });

  it('code outside a folder with an index.ts imports the folder only through it', () => {
    const surfaces = new Set(FILES.filter((file) => /^src\/[^/]+\/index\.ts$/.test(file)).map(unitOf));
    const offenders = FILE_EDGES.filter(
      (edge) => unitOf(edge.from) !== unitOf(edge.to) && surfaces.has(unitOf(edge.to)),
    )
      .filter((edge) => edge.to !== `${unitOf(edge.to)}/index.ts`)
      .map((edge) => `${edge.from} imports ${edge.to}`);
    expect(offenders).toEqual([]);
  });

  it(`reports files over about ${SOFT_LINE_LIMIT} lines of code, each with its reason in the doc`, () => {
    const reasons = longFileReasons();
    const long = FILES.map((file) => ({ file, lines: codeLines(file) })).filter(
      ({ lines }) => lines > SOFT_LINE_LIMIT,
    );
    for (const { file, lines } of long)
      console.info(`${file}: ${lines} lines of code — ${reasons.get(file) ?? 'NO REASON GIVEN'}`);
    expect(long.filter(({ file }) => !reasons.has(file)).map(({ file }) => file)).toEqual([]);
    // A reason for a file back under the limit (or gone) is stale: the doc must say so.
    expect([...reasons.keys()].filter((file) => !long.some((l) => l.file === file))).toEqual([]);
  });
});
