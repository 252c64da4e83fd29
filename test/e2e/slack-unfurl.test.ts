import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createKeyValueInstallationStore } from '../../adapters/slack/installation-store.js';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { EMULATOR_WEB_URL } from '../../src/emulator/index.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { startWorld } from '../support/engine-harness.js';
import { botInstallationStore, Cleanup, startPipeline } from '../support/pipeline-harness.js';
import { createOAuthSlackAdapter, createTestSealer } from '../support/slack-oauth.js';
import { installation } from '../support/workspace-seed.js';

const SIGNING_SECRET = 'e2e-signing-secret';

const world = await startWorld();
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/**
 * Link previews through the bot's own wiring: the multi-workspace Slack adapter (Bolt authorizes
 * each `link_shared` with the installation of the workspace it came from), the command handler as
 * the composition root builds it (with its metrics), the engine's directory client, the emulator.
 */
describe('Slack link previews end to end, multi-workspace', () => {
  it("unfurls with the token of the workspace the link was pasted in, and counts every preview in /metrics' counter", async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.add(() => slack.close());
    const installs = botInstallationStore();
    const sealer = createTestSealer();
    const adapter = createOAuthSlackAdapter(slack.apiUrl, installs, sealer, SIGNING_SECRET);
    const metrics = createMetrics();
    const { url: botUrl } = await startPipeline(world, cleanup, adapter, {
      namespace: 'e2e-slack-unfurl',
      installs,
      commands: (bot) =>
        buildCommandHandler(
          { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
          { ...bot, metrics },
        ),
    });
    for (const [team, token] of [
      ['T0ONE', 'xoxb-one'],
      ['T0TWO', 'xoxb-two'],
    ] as const) {
      slack.addToken(token, team);
      await createKeyValueInstallationStore(installs, sealer).storeInstallation(installation(team, token));
    }

    const post = world.emulator.admin.addPost({ name: 'Shared <!here> link' });
    const url = `${EMULATOR_WEB_URL}/posts/${String(post['slug'])}`;
    const missing = `${EMULATOR_WEB_URL}/posts/no-such-post-here`;
    const { response } = await slack.unfurls.share(botUrl, SIGNING_SECRET, {
      teamId: 'T0TWO',
      channel: 'C2',
      user: 'U2',
      urls: [url, missing],
    });
    expect(response.status).toBe(200);

    const call = await slack.waitForCall((c) => c.method === 'chat.unfurl');
    expect(call.token).toBe('xoxb-two');
    expect(call.response).toEqual({ ok: true });
    const sent = slack.unfurls.sent[0];
    expect(Object.keys(sent?.unfurls ?? {})).toEqual([url]);
    expect(JSON.stringify(sent?.unfurls)).toContain('Shared &lt;!here&gt; link');
    expect(slack.violations).toEqual([]);
    const counted = await metrics.registry.getSingleMetricAsString('directory_bot_link_previews_total');
    expect(counted).toContain(
      'directory_bot_link_previews_total{platform="slack",result="found",cached="false"} 1',
    );
    expect(counted).toContain(
      'directory_bot_link_previews_total{platform="slack",result="not_found",cached="false"} 1',
    );
  });
});
