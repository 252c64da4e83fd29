import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config/load-config.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { blockActionsBody } from '../fakes/slack/block-actions.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { homeButtons, postAppHomeOpened, postHomeButton } from '../fakes/slack/home-events.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import { postSlashCommand } from '../fakes/slack/slash-command.js';
import { eventually } from '../support/polling.js';
import { makeTempDir } from '../support/temp-dir.js';

const TOKEN = 'xoxb-metrics';
const SECRET = 'metrics-signing-secret';
const ADMIN = 'UADMIN';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

/**
 * The Slack surfaces people use (the App Home, message buttons, the subscribe form) and the copies
 * the bot ignores, counted in /metrics: the bot as `start` runs it, configured from the
 * environment, talking to the fake Slack and the directory emulator.
 */
describe('Slack interactions in /metrics', () => {
  it('counts Home publishes and presses, message buttons, forms opened and submitted, and ignored copies', async () => {
    const slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    slack.addUser(ADMIN, { is_admin: true });
    const emulator = await startEmulator({ port: 0 });
    const config = loadConfig({
      environment: {
        PORT: '0',
        STORE_URL: `sqlite://${join(temp.path, 'metrics.sqlite')}`,
        DIRECTORY_BASE_URL: emulator.url,
        DIRECTORY_TOKEN: 'dev-token',
        SLACK_BOT_TOKEN: TOKEN,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
      },
      envFile: false,
    });
    const app = createApp(config, { logger: createSilentLogger() });
    try {
      const { port } = await app.start();
      const bot = `http://127.0.0.1:${port}`;
      const events = `${bot}/slack/events`;

      // The subscribe form: opened by `/directory subscribe`, submitted with a feed.
      const opening = await postSlashCommand(bot, SECRET, {
        text: 'subscribe',
        userId: ADMIN,
        responseUrl: slack.responseUrl(),
        triggerId: slack.modals.trigger(ADMIN),
      });
      expect(await opening.text()).toBe('');
      const opened = slack.modals.opened.at(-1);
      if (opened === undefined) throw new Error('no modal was opened');
      expect((await slack.modals.submit(events, SECRET, opened, { feed: 'posts' })).status).toBe(200);

      // The Home tab, and its Pause button on the new subscription.
      await postAppHomeOpened(bot, SECRET, 'T1', ADMIN);
      await eventually(() => homeButtons(slack.views.homeOf('T1', ADMIN)).length > 0, 10_000, 'a home');
      const [pause] = homeButtons(slack.views.homeOf('T1', ADMIN));
      expect(pause?.action_id).toBe('home:v1:pause');
      await postHomeButton(bot, SECRET, { teamId: 'T1', userId: ADMIN, button: pause! });

      // A message button (Comments on a post), and the very same signed click sent again.
      const post = emulator.admin.addPost({ name: 'Counted' });
      const click = blockActionsBody({
        button: { action_id: `dirbot:v1:comments:${post.id}`, text: { text: 'Comments' } },
        userId: ADMIN,
        channelId: 'C1',
        teamId: 'T1',
        responseUrl: slack.responseUrl(),
      });
      const headers = signedHeaders(SECRET, click, Math.floor(Date.now() / 1000));
      for (let i = 0; i < 2; i += 1) {
        expect((await fetch(events, { method: 'POST', body: click, headers })).status).toBe(200);
      }

      const wanted = [
        'directory_bot_forms_total{platform="slack",stage="opened",result="ok",deferred="false"} 1',
        'directory_bot_forms_total{platform="slack",stage="submitted",result="ok",deferred="false"} 1',
        'directory_bot_home_publishes_total{platform="slack"} 2',
        'directory_bot_home_actions_total{platform="slack",action="pause",result="done"} 1',
        'directory_bot_buttons_total{platform="slack",verb="comments",result="ok"} 1',
        'directory_bot_replays_total{platform="slack",kind="button"} 1',
      ];
      let scraped = '';
      await eventually(
        async () => {
          scraped = await (await fetch(`${bot}/metrics`)).text();
          return wanted.every((line) => scraped.includes(line));
        },
        10_000,
        'the interaction counters',
        100,
      ).catch(() => undefined);
      expect(
        scraped.split('\n').filter((line) => /^directory_bot_(forms|home|buttons|replays)/.test(line)),
      ).toEqual(expect.arrayContaining(wanted));
      expect(slack.violations).toEqual([]);
    } finally {
      await app.stop();
      await slack.close();
      await emulator.close();
    }
  });
});
