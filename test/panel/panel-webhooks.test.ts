import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWebhookAdmin, type WebhookAdmin } from '../../src/app/webhook-admin.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { PanelWebhooks } from '../../src/panel/index.js';
import { FakeDiscordWebhooks } from '../fakes/webhooks/fake-discord-webhooks.js';
import { PanelClient } from '../support/panel-client.js';
import { type PanelHarness, startPanelHarness, TEAM } from '../support/panel-harness.js';

/**
 * Webhooks in the control panel (issue 30): an operator adds one (URL and routes, mentions
 * included), tests and removes it, the URL never on a page or in a log; a workspace admin who is
 * not an operator is refused every one of those, from outside, over HTTP.
 */

const OPERATOR = { userId: 'UOPERATOR1', teamId: TEAM, teamName: 'Panel Team', name: 'Olga Operator' };
const ADMIN = { userId: 'UADMIN0002', teamId: TEAM, teamName: 'Panel Team', name: 'Ada Admin' };
const ROLE = '222222222222222222';

let t: PanelHarness;
let admin: WebhookAdmin;
const discord = await new FakeDiscordWebhooks().listen();
const hook = discord.addWebhook();
const token = hook.url.split('/').at(-1) as string;

beforeAll(async () => {
  // The admin opens over the harness's store, which exists once the harness has started.
  const webhooks: PanelWebhooks = {
    list: () => admin.list(),
    add: (input) => admin.add(input),
    test: (name) => admin.test(name),
    remove: (name) => admin.remove(name),
  };
  t = await startPanelHarness({ operatorIds: [`slack:${OPERATOR.userId}`], webhooks });
  const config = loadConfig({
    environment: { STORE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') },
    envFile: false,
  });
  admin = openWebhookAdmin(config, t.logs, t.h.store);
  t.slack.addUser(OPERATOR.userId);
  t.slack.addUser(ADMIN.userId, { is_admin: true });
});

afterAll(async () => {
  await admin?.close();
  await t?.close();
  await discord.close();
});

async function signIn(person: typeof OPERATOR) {
  const client = new PanelClient();
  t.slack.oidc.signedIn = person;
  await client.follow(`${t.url}/signin/slack`);
  return client;
}

describe('webhooks in the control panel', () => {
  it('lets an operator add a webhook with a route that pings a role, test it and remove it', async () => {
    const client = await signIn(OPERATOR);
    const overview = await client.send('GET', `${t.url}/`);
    expect(overview.body).toContain('href="/webhooks"');
    const page = await client.send('GET', `${t.url}/webhooks`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('No webhook yet.');

    const added = await client.send('POST', `${t.url}/webhooks`, {
      _csrf: PanelClient.csrf(page),
      name: 'news',
      url: hook.url,
      routes: `comments?mention=role:${ROLE}&mention-on=urgent\n`,
    });
    expect(added.status).toBe(303);
    const listed = await client.send('GET', `${t.url}/webhooks`);
    expect(listed.body).toContain('Stored the webhook &quot;news&quot;: 1 subscription added');
    expect(listed.body).toMatch(/http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/\d+\/\*\*\*\*/);
    const [subscription] = (await t.h.subscriptions.list()).filter((s) => s.channelId === 'news');
    expect(subscription).toMatchObject({
      platform: 'discord-webhook',
      feed: 'comments',
      mentions: [{ kind: 'role', id: ROLE }],
      mentionOn: ['urgent'],
    });

    const tested = await client.send('POST', `${t.url}/webhooks/news/test`, {
      _csrf: PanelClient.csrf(listed),
    });
    expect(tested.status).toBe(303);
    const afterTest = await client.send('GET', `${t.url}/webhooks`);
    expect(afterTest.body).toContain('Delivered a test message to &quot;news&quot;.');
    expect(JSON.stringify([...discord.messages.values()].at(-1)?.body)).toContain(
      'Directory Bot test message',
    );

    const removed = await client.send('POST', `${t.url}/webhooks/news/remove`, {
      _csrf: PanelClient.csrf(afterTest),
    });
    expect(removed.status).toBe(303);
    const after = await client.send('GET', `${t.url}/webhooks`);
    expect(after.body).toContain('Removed the webhook &quot;news&quot; and its 1 subscription.');
    expect((await t.h.subscriptions.list()).filter((s) => s.channelId === 'news')).toEqual([]);

    // The URL's credential was on no page and in no log line.
    for (const body of [page.body, listed.body, afterTest.body, after.body])
      expect(body).not.toContain(token);
    expect(JSON.stringify(t.logs.lines)).not.toContain(token);
  });

  it('refuses a route that cannot work, in the command words, and stores nothing', async () => {
    const client = await signIn(OPERATOR);
    const page = await client.send('GET', `${t.url}/webhooks`);
    const refused = await client.send('POST', `${t.url}/webhooks`, {
      _csrf: PanelClient.csrf(page),
      name: 'bad',
      url: hook.url,
      routes: 'comments?mention=channel:everyone',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('class="notice refused"');
    expect(refused.body).not.toContain(token);
    expect((await admin.list()).map((w) => w.name)).not.toContain('bad');
  });

  it('refuses a workspace admin who is not an operator: the page, adding, testing and removing', async () => {
    const operator = await signIn(OPERATOR);
    const form = await operator.send('GET', `${t.url}/webhooks`);
    await operator.send('POST', `${t.url}/webhooks`, {
      _csrf: PanelClient.csrf(form),
      name: 'kept',
      url: hook.url,
      routes: 'comments',
    });
    const client = await signIn(ADMIN);
    const overview = await client.send('GET', `${t.url}/`);
    expect(overview.body).not.toContain('href="/webhooks"');
    const page = await client.send('GET', `${t.url}/webhooks`);
    expect(page.status).toBe(403);
    expect(page.body).toContain('managed by the bot&#39;s operators');
    const csrf = PanelClient.csrf(overview);
    const before = discord.messages.size;
    for (const [path, form] of [
      ['/webhooks', { name: 'sneaky', url: hook.url, routes: `comments?mention=role:${ROLE}` }],
      ['/webhooks', { name: 'kept', routes: `comments?mention=role:${ROLE}` }],
      ['/webhooks/kept/test', {}],
      ['/webhooks/kept/remove', {}],
    ] as const) {
      const answer = await client.send('POST', `${t.url}${path}`, { _csrf: csrf, ...form });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toContain('managed by the bot&#39;s operators');
    }
    expect(discord.messages.size).toBe(before);
    const kept = (await admin.list()).find((w) => w.name === 'kept');
    expect(kept?.subscriptions.map((s) => s.mentions ?? [])).toEqual([[]]);
    expect((await admin.list()).map((w) => w.name)).not.toContain('sneaky');
  });
});
