import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderedExample, WHY_EXAMPLES } from './why-examples.js';

const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');

describe('docs/commands.md shows the answers `why` gives', () => {
  for (const name of Object.keys(WHY_EXAMPLES) as (keyof typeof WHY_EXAMPLES)[]) {
    it(`the ${name} example, as the bot renders it`, async () => {
      const { asked } = await WHY_EXAMPLES[name]();
      expect(commands).toContain(`\`\`\`\n/directory why ${asked}\n\n${await renderedExample(name)}\n\`\`\``);
    });
  }
});
