import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve('.');
const CLI = `"${process.execPath}" --import tsx "${resolve('src/cli/main.ts')}"`;

/** The README and every Markdown file under docs/, as repository-relative paths. */
function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(join(dir, entry.name))
        : entry.name.endsWith('.md')
          ? [join(dir, entry.name)]
          : [],
    );
  return ['README.md', ...walk('docs')];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      heading!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replaceAll(' ', '-'),
    );
  }
  return anchors;
}

/** The first ```sh block of a doc that contains `needle`, as the reader would paste it. */
function shellExample(doc: string, needle: string): string {
  const blocks = [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );
  const block = blocks.find((text) => text.includes(needle));
  if (block === undefined) throw new Error(`${doc} has no sh example containing "${needle}"`);
  return block;
}

/** Runs a documented command, with `npx directory-bot` pointing at this checkout's source. */
async function runExample(example: string): Promise<{ stdout: string; stderr: string }> {
  return run('sh', ['-c', example.replaceAll('npx directory-bot', CLI)], { cwd: ROOT });
}

describe('the docs stand on their own', () => {
  it('every relative link points at a file (and heading) inside the repository', () => {
    const broken: string[] = [];
    for (const doc of docFiles()) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
        const [path = '', anchor] = target!.split('#');
        const file = path === '' ? join(ROOT, doc) : resolve(ROOT, dirname(doc), path);
        if (relative(ROOT, file).startsWith('..') || !existsSync(file)) {
          broken.push(`${doc}: ${target}`);
        } else if (anchor !== undefined && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
          broken.push(`${doc}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('no doc sends the reader to the upstream spec or notes that are not in the repository', () => {
    for (const doc of docFiles()) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      expect(text, doc).not.toMatch(/REAL-WORLD\.md|spec\/directory-service\.md|\.\.\/shared\//);
    }
  });
});

describe('examples in the docs work as written', () => {
  it('docs/slack.md: render prints the chat.postMessage arguments, with <!channel> defused', async () => {
    const { stdout } = await runExample(shellExample('docs/slack.md', 'render --platform slack'));
    const payload = JSON.parse(stdout) as { text: string; blocks: unknown[] };
    expect(payload.blocks.length).toBeGreaterThan(0);
    expect(payload.text).toContain('Atlas');
    expect(stdout).toContain('&lt;!channel&gt;');
  });

  it('docs/commands.md: render --digest prints the digest shown under it', async () => {
    const { stdout } = await runExample(
      shellExample('docs/commands.md', 'render --platform console --digest'),
    );
    const doc = readFileSync(join(ROOT, 'docs/commands.md'), 'utf8');
    expect(doc).toContain(`prints\n\n\`\`\`\n${stdout}\`\`\``);
  });
});
