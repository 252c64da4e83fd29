import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createLostAccessRemoval } from '../../src/app/lost-access-removal.js';
import { createWorkspaceRemoval } from '../../src/app/workspace-removal.js';
import { Outbox } from '../../src/delivery/outbox.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { systemClock } from '../../src/ports/clock.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { exportWorkspace } from '../../src/workspaces/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { silentLogger } from '../support/pipeline-harness.js';
import { makeTempDir } from '../support/temp-dir.js';

const TOKEN = 'lost-access-token';
const [KICKED, DELETED, STILL_IN, FLAKY] = [
  '300000000000000001',
  '300000000000000002',
  '300000000000000003',
  '300000000000000004',
];

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * A store left by a bot that stopped after the last refusals paused every channel of four
 * servers but before it asked Discord about them, and the next start's sweep against a fake
 * Discord where one server kicked the bot, one was deleted, one still has it, and one answers 500.
 */
async function restartAfterRefusals() {
  const store: BotStore = createStore({ url: `sqlite://${join(temp.path, 'lost.sqlite')}` });
  closing.push(() => store.close());
  const rest = new FakeDiscordRest({ token: TOKEN });
  await rest.listen();
  closing.push(() => rest.close());
  const subscriptions = new SubscriptionRepository({
    keyv: store.keyv,
    leases: store.leases,
    clock: systemClock,
  });
  let channel = 400000000000000000n;
  for (const guild of [KICKED, DELETED, STILL_IN, FLAKY]) {
    for (let count = 0; count < 2; count += 1) {
      channel += 1n;
      const channelId = channel.toString();
      rest.addChannel(channelId, 'ok', guild);
      await subscriptions.add({
        platform: 'discord',
        channelId,
        workspaceId: guild,
        feed: 'comments',
        filters: {},
        createdBy: 'U1',
      });
      await subscriptions.pauseDestination(
        'discord',
        channelId,
        guild === DELETED ? 'unknown_channel' : 'missing_access',
        'refused',
      );
    }
  }
  rest.kickFromGuild(KICKED);
  rest.deleteGuild(DELETED);
  // Twice: discord.js retries a 500 once.
  rest.failNextGuild(FLAKY, { status: 500, code: 0, message: 'Internal Server Error' }, 2);

  const adapter = createDiscordAdapter({
    token: TOKEN,
    applicationId: '1',
    apiUrl: rest.url,
    gateway: false,
    logger: silentLogger(),
  });
  closing.push(() => adapter.stop());
  const log = createCapturingLogger();
  const metrics = createMetrics();
  const outbox = new Outbox({ keyv: store.keyv, directoryId: 'dir0aaa' });
  const workspaceRemoved = createWorkspaceRemoval({ store, outbox, logger: log, metrics });
  const watch = createLostAccessRemoval({
    subscriptions,
    adapters: [adapter],
    workspaceRemoved,
    logger: log,
  });
  return { store, rest, log, metrics, watch };
}

const stored = async (store: BotStore, guild: string) =>
  (await exportWorkspace({ store }, { platform: 'discord', id: guild })).subscriptions.length;

describe('servers lost on every channel when the bot starts', () => {
  it('forgets the kicked and the deleted server, keeps the one Discord says the bot is in and the one it could not ask about', async () => {
    const { store, rest, log, metrics, watch } = await restartAfterRefusals();
    await watch.sweep();

    expect(await stored(store, KICKED)).toBe(0);
    expect(await stored(store, DELETED)).toBe(0);
    expect(await stored(store, STILL_IN)).toBe(2);
    expect(await stored(store, FLAKY)).toBe(2);
    expect(rest.callsTo('GET', '/guilds/:id').map((c) => [c.path, c.status])).toEqual([
      [`/guilds/${KICKED}`, 403],
      [`/guilds/${DELETED}`, 404],
      [`/guilds/${STILL_IN}`, 200],
      [`/guilds/${FLAKY}`, 500],
      [`/guilds/${FLAKY}`, 500],
    ]);
    expect(await metrics.registry.metrics()).toContain(
      'directory_bot_workspaces_removed_total{platform="discord",reason="missing_access"} 2',
    );
    expect(log.lines.map((l) => [l.level, l.fields['workspace'], l.fields['reason']])).toEqual([
      ['info', KICKED, 'missing_access'],
      ['info', DELETED, 'missing_access'],
      ['info', STILL_IN, undefined],
      ['warn', FLAKY, undefined],
    ]);

    // The next start asks only about the one it could not ask about: the answer for the other stands.
    await watch.sweep();
    expect(
      rest
        .callsTo('GET', '/guilds/:id')
        .slice(5)
        .map((c) => [c.path, c.status]),
    ).toEqual([[`/guilds/${FLAKY}`, 200]]);
  });
});
