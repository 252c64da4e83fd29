import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { eventually } from '../support/polling.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

/** The sandbox app with a console prompt fed from `input`, its screen captured, on its own store. */
function sandboxAtPrompt(storeFile: string) {
  const config = loadConfig({
    environment: {
      PORT: '0',
      STORE_URL: `sqlite://${join(temp.path, storeFile)}`,
      SANDBOX_ACTIVITY_PER_MIN: '600',
    },
    envFile: false,
  });
  const input = new PassThrough();
  const screen = { onWrite: (_text: string) => {} };
  const app = createApp(config, {
    logger: createSilentLogger(),
    consoleInput: input,
    consoleWrite: (text) => screen.onWrite(text),
  });
  return { app, input, screen };
}

describe('the sandbox, as a newcomer sees it', () => {
  it('answers every /directory command typed at the console prompt and shows feed updates', async () => {
    const { app, input, screen } = sandboxAtPrompt('sandbox.sqlite');
    let output = '';
    screen.onWrite = (text) => {
      output += text;
    };
    const { port } = await app.start();
    try {
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      const commands = [
        ['help', 'subscribe'],
        ['post 1', 'Votes'],
        ['posts today --top 3', ''],
        ['comments 1 --limit 2', ''],
        ['collections featured', ''],
        ['live upcoming', ''],
        ['live undated', ''],
        ['subscribe comments --keyword launch', 'Subscribed'],
        ['subscriptions', 'comments'],
        ['unsubscribe comments', 'removed'],
        ['status', 'all good'],
        ['frobnicate', 'Unknown'],
      ] as const;
      for (const [command, expected] of commands) {
        const before = output.length;
        input.write(`/directory ${command}\n`);
        await eventually(
          () => output.length > before && output.slice(before).includes('directory>'),
          15_000,
          command,
        );
        const reply = output.slice(before);
        expect(reply, command).not.toMatch(/at .*\.ts:\d+|TypeError|undefined/);
        if (expected) expect(reply.toLowerCase(), command).toContain(expected.toLowerCase());
      }
      // The emulator invents activity; the sandbox channel gets it within a poll or two.
      await eventually(() => output.includes('── #sandbox ──'), 30_000, 'a feed update');
    } finally {
      input.end();
      await app.stop();
    }
  }, 60_000);

  it('makes the prompt the feeds channel: subscriptions lists what flows, and nothing prints twice', async () => {
    const { app, input, screen } = sandboxAtPrompt('one-channel.sqlite');
    let output = '';
    screen.onWrite = (text) => {
      output += text;
    };
    await app.start();
    const type = async (command: string) => {
      const before = output.length;
      input.write(`${command}\n`);
      await eventually(() => output.slice(before).includes('directory>'), 15_000, command);
      return output.slice(before);
    };
    try {
      const listed = await type('subscriptions');
      for (const feed of ['posts', 'comments', 'collections', 'live', 'notifications'])
        expect(listed, feed).toContain(`: ${feed}`);
      expect(await type('subscribe live --video')).toContain('Subscribed');
      expect((await type('unsubscribe notifications')).toLowerCase()).toContain('removed');
      const after = await type('subscriptions');
      expect(after).toContain('live — on camera only');
      expect(after).not.toContain('notifications');
      await eventually(() => (output.match(/── #sandbox ──/g) ?? []).length >= 3, 30_000, 'feed items');
      expect(output).not.toContain('── #console ──');
    } finally {
      input.end();
      await app.stop();
    }
  }, 60_000);
});
