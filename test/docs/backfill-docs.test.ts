import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleAdapter, renderConsoleReply } from '../../adapters/console/index.js';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { createManualClock } from '../../src/emulator/index.js';
import type { CommandHandler, CommandReply } from '../../src/ports/index.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { silentLogger } from '../support/pipeline-harness.js';

/**
 * docs/commands.md shows `--backfill` as the bot answers and posts it: the real command handler,
 * engine and console adapter against the emulator (seed 7) on a fixed clock. The subscription id
 * is random, so the docs write it `s1a2b3c`.
 */

const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
const clock = createManualClock(Date.parse('2026-11-23T12:10:00Z'));
const world = await startWorld({ clock });
let printed = '';
const adapter = createConsoleAdapter({
  write: (text) => {
    printed += text;
  },
  logger: silentLogger(),
});
const bot = await startInstance({
  emulator: world.emulator,
  storeUrl: world.sqliteUrl(),
  namespace: 'backfill-docs',
  adapters: [adapter],
  clock,
  settings: { dedupeTtlMs: 30 * 86_400_000 },
});
const handler: CommandHandler = buildCommandHandler(
  { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
  bot,
  { clock },
);
await adapter.start({ http: { mount: () => {} }, commands: handler, logger: silentLogger() });
bot.engine.dispatcher.start();
afterAll(async () => {
  await adapter.stop();
  await bot.close();
  await world.close();
});

/** `/directory <text>` at the sandbox's prompt, its answer as the console prints it (the id written s1a2b3c). */
async function typed(text: string): Promise<string> {
  const reply: CommandReply = await handler.handle({
    platform: 'console',
    channelId: 'sandbox',
    actor: { userId: 'console', canManageChannel: true },
    text,
  });
  return renderConsoleReply(reply).replaceAll(/\bs[0-9a-f]{8}\b/g, 's1a2b3c');
}

/** The docs' way of showing a command and its answer: the command, then `→ ` and the answer indented. */
const asDocumented = (text: string, answer: string) =>
  `/directory ${text}\n→ ${answer.split('\n').join('\n  ')}`;

describe('docs/commands.md shows --backfill as the bot answers and posts it', () => {
  it('the answer to subscribe --backfill, and the items the channel then gets, oldest first', async () => {
    const text = 'subscribe posts --backfill 3 --format title';
    expect(commands).toContain(asDocumented(text, await typed(text)));
    const before = printed.length;
    await bot.engine.backfill.runner.runOnce();
    await bot.engine.dispatcher.drained(2);
    const shown = printed.slice(before).trim();
    expect(shown.split('── #sandbox ──')).toHaveLength(4);
    expect(commands).toContain(`\`\`\`\n${shown}\n\`\`\``);
  });

  it('the answer to the same subscribe again: nothing twice', async () => {
    const text = 'subscribe posts --backfill 3 --format title';
    // Shown inside a list item, indented two spaces.
    const indented = asDocumented(text, await typed(text)).replaceAll(/^/gm, '  ');
    expect(commands).toContain(indented);
  });

  it.each(['subscribe posts --backfill 50', 'subscribe posts --backfill many'])(
    'the refusal of %s',
    async (text) => {
      const answer = await typed(text);
      expect(answer).toMatch(/^✗ --backfill/);
      // The table cell holds the sentence (without the usage line under it).
      expect(commands).toContain(
        `| \`${text.replace('subscribe posts ', '')}\` | \`${answer.split('\n')[0]?.slice(2)}\` |`,
      );
    },
  );
});
