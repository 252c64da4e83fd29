import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMAND_SPECS } from '../../src/commands/index.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Command names that open a row of a docs table: | `posts [today|…]` | … */
function documentedCommands(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`([a-z][a-z-]*)[^`]*`\s*\|/gm)].map((m) => m[1]!);
}

describe('the command list and the documents that name commands', () => {
  it('gives every command its row in docs/commands.md, and documents no command that is gone', () => {
    const names = COMMAND_SPECS.map((spec) => spec.name);
    const documented = documentedCommands(read('docs/commands.md'));
    expect(names.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !names.includes(name))).toEqual([]);
  });

  it("names only real commands in the Slack manifest's usage hint", () => {
    const manifest = parse(read('slack-manifest.yml')) as {
      features: { slash_commands: { usage_hint: string }[] };
    };
    const hinted = manifest.features.slash_commands.flatMap((command) =>
      command.usage_hint.split('|').map((part) => part.trim().split(/\s+/)[0] ?? ''),
    );
    expect(hinted.length).toBeGreaterThan(0);
    const names = COMMAND_SPECS.map((spec) => spec.name);
    expect(hinted.filter((word) => !names.includes(word))).toEqual([]);
  });
});
