import { afterAll, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import { editsBot, EDIT_MIN_INTERVAL_MS as INTERVAL_MS } from '../support/edits-bot.js';
import { startWorld } from '../support/engine-harness.js';

const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
const world = await startWorld({ clock });
afterAll(() => world.close());

it('never marks removed a post that only fell off the page beside others of the same second', async () => {
  const { bot, pollAndSend } = await editsBot(world, clock, 'posts', 'same-second');
  try {
    // Launched together: one second for all twelve, more than the posts feed's page of ten.
    for (let i = 0; i < 12; i += 1) world.emulator.admin.addPost({ name: `Launch ${i}` });
    clock.advance(1000);
    await pollAndSend();
    expect(bot.adapter.deliveries).toHaveLength(12);
    clock.advance(INTERVAL_MS);
    await pollAndSend();
    expect(bot.adapter.edits.filter((e) => e.message.title.startsWith('Removed'))).toEqual([]);
  } finally {
    await bot.close();
  }
});
