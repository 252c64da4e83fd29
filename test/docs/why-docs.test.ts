import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { whyExamples } from './why-examples.js';

const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');

describe('docs/commands.md shows /directory why as the bot answers it', () => {
  it('a delivered, a held and filtered, and a not yet polled comment, as the console prints them', async () => {
    const examples = await whyExamples();
    for (const answer of [examples.delivered, examples.held, examples.notPolled])
      expect(commands).toContain(`\`\`\`\n${answer}\n\`\`\``);
  });
});
