import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleBlock, WEBHOOK_EXAMPLES } from './webhook-examples.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const webhooks = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');

describe("the README's webhook examples are what the renderers send", () => {
  it.each(WEBHOOK_EXAMPLES)('$heading: the body posted for the example post', (example) => {
    // Indented under the list item it belongs to. After a renderer change, print
    // exampleBlock(example) and paste it in (indented by five spaces).
    const indented = exampleBlock(example)
      .split('\n')
      .map((line) => (line === '' ? line : `     ${line}`))
      .join('\n');
    expect(readme).toContain(indented);
  });

  it('says which two variables make a feed, for each kind', () => {
    const going = readme.slice(readme.indexOf('## Going live'), readme.indexOf('## Configuration'));
    expect(going).toContain('WEBHOOK_');
    expect(going).toContain('SUBSCRIPTIONS=');
    for (const example of WEBHOOK_EXAMPLES) expect(going).toContain(example.heading);
  });

  it('docs/webhooks.md states a source for every pacing number it gives', () => {
    const table = webhooks.slice(
      webhooks.indexOf('## Pacing'),
      webhooks.indexOf('## ', webhooks.indexOf('## Pacing') + 3),
    );
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Kind') && !line.startsWith('| ---'));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) expect(row, row).toMatch(/https?:\/\/|docs\/|our own/i);
  });
});
