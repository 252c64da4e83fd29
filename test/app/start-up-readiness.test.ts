import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBot } from '../support/child-bot.js';
import { freePort } from '../support/free-port.js';
import { isConnectionRefused, startLivePlatforms } from '../support/live-platforms.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

/** As slow as Slack's auth.test can be on a bad day: longer than Slack waits for a command's answer. */
const SLOW_AUTH_TEST_MS = 3_000;

interface Probe {
  /** When the probe's Slack command was sent. */
  sentAt: number;
  slack: number;
  slackBody: string;
  discord: number;
  readyz: number;
  readyzBody: string;
  /** When the /readyz answer arrived. */
  readyzAnsweredAt: number;
}

describe('start-up while Slack is slow', () => {
  it('answers Slack and Discord from the moment the port accepts connections, and /readyz is 503 until every adapter is ready', async () => {
    const platforms = await startLivePlatforms();
    platforms.slack.slowDown('auth.test', SLOW_AUTH_TEST_MS);
    let authTestAnsweredAt = Number.POSITIVE_INFINITY;
    void platforms.slack
      .waitForCall((call) => call.method === 'auth.test')
      .then(() => {
        authTestAnsweredAt = Date.now();
      });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const bot = spawnBot(['start'], {
      ...platforms.env(join(temp.path, 'readiness.sqlite')),
      PORT: String(port),
    });
    let exited = false;
    void bot.exited.then(() => {
      exited = true;
    });

    try {
      const probes: Probe[] = [];
      const deadline = Date.now() + 60_000;
      let readyInARow = 0;
      let user = 0;
      // From the first accepted connection on, poll without pause: every request must be answered.
      while (readyInARow < 3) {
        if (exited || Date.now() > deadline)
          throw new Error(`the bot exited or never became ready; output:\n${bot.output()}`);
        user += 1;
        const sentAt = Date.now();
        let slack: Response;
        try {
          slack = await platforms.slashCommand(base, 'help', `U${user}`);
        } catch (error) {
          if (!isConnectionRefused(error)) throw error;
          // Not listening yet is allowed, but only before the port first accepted a connection.
          expect(probes, 'the port stopped accepting connections').toEqual([]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const slackBody = await slack.text();
        const discord = await platforms.discordInteraction(
          base,
          'help',
          String(200000000000000000n + BigInt(user)),
        );
        await discord.arrayBuffer();
        const readyz = await fetch(`${base}/readyz`);
        const readyzBody = await readyz.text();
        probes.push({
          sentAt,
          slack: slack.status,
          slackBody,
          discord: discord.status,
          readyz: readyz.status,
          readyzBody,
          readyzAnsweredAt: Date.now(),
        });
        readyInARow = readyz.status === 200 ? readyInARow + 1 : 0;
      }

      // The window this test is about was observed: requests arrived while auth.test was pending.
      const early = probes.filter((p) => p.sentAt < authTestAnsweredAt);
      expect(early.length).toBeGreaterThan(0);

      // Every Slack command and Discord interaction was answered 200, before and after readiness.
      expect(probes.filter((p) => p.slack !== 200).map((p) => `${p.slack} ${p.slackBody}`)).toEqual([]);
      expect(probes.filter((p) => p.discord !== 200).map((p) => p.discord)).toEqual([]);
      // And with the real answer, not a placeholder: /directory help lists the commands.
      expect(early[0]?.slackBody).toContain('subscribe');

      // /readyz: 503 until ready, 200 after, never back; and never ready before Slack answered.
      expect(early[0]?.readyz).toBe(503);
      expect(JSON.parse(early[0]?.readyzBody ?? '{}').checks.slack).not.toBe('ok');
      const firstReady = probes.findIndex((p) => p.readyz === 200);
      expect(probes.slice(0, firstReady).every((p) => p.readyz === 503)).toBe(true);
      expect(probes.slice(firstReady).every((p) => p.readyz === 200)).toBe(true);
      expect(probes[firstReady]?.readyzAnsweredAt).toBeGreaterThanOrEqual(authTestAnsweredAt);

      // Gone for real: pid reaped and the port refusing connections.
      expect((await bot.stop('SIGTERM')).code).toBe(0);
    } finally {
      if (!exited) bot.child.kill('SIGKILL');
      await bot.exited;
      await platforms.close();
    }
  }, 90_000);
});
