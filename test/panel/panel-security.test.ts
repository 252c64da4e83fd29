import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/subscriptions/index.js';
import { PanelClient } from '../support/panel-client.js';
import {
  DISCORD_CLIENT,
  DISCORD_TOKEN,
  GUILD_A,
  GUILD_B,
  OTHER_TEAM,
  type PanelHarness,
  SESSION_SECRET,
  SIGN_IN_LIMIT,
  SLACK_BOT_TOKEN,
  SLACK_CLIENT,
  startPanelHarness,
  TEAM,
} from '../support/panel-harness.js';

const ADMIN = { userId: 'UADMIN0001', teamId: TEAM, teamName: 'Panel Team', name: 'Ada Admin' };
const MEMBER = { userId: 'UMEMBER001', teamId: TEAM, teamName: 'Panel Team', name: 'Max Member' };
const STRANGER = { userId: 'USTRANGER1', teamId: OTHER_TEAM, teamName: 'Other Team', name: 'Sam Stranger' };
const SLACK_CHANNEL = 'C0PANEL001';
const OTHER_SLACK_CHANNEL = 'C0OTHER001';
const CHANNEL_A = '400000000000000001';
const CHANNEL_B = '400000000000000002';
/** Discord members: one without Manage Channels, one with it through a role. */
const PLAIN = '500000000000000001';
const MOD = '500000000000000002';
const MANAGE_CHANNELS = 1n << 4n;
const VIEW = 1n << 10n;

let t: PanelHarness;
const subs: Record<string, Subscription> = {};

beforeAll(async () => {
  t = await startPanelHarness();
  t.slack.addUser(ADMIN.userId, { is_admin: true });
  t.slack.addUser(MEMBER.userId);
  t.discord.addChannel(CHANNEL_A, 'ok', GUILD_A);
  t.discord.addChannel(CHANNEL_B, 'ok', GUILD_B);
  t.discord.oauth.addGuild(GUILD_A, {
    name: 'Guild A',
    ownerId: '500000000000000099',
    roles: [
      { id: GUILD_A, name: '@everyone', permissions: VIEW },
      { id: '600000000000000001', name: 'mods', permissions: VIEW | MANAGE_CHANNELS },
    ],
  });
  t.discord.oauth.addGuild(GUILD_B, {
    name: 'Guild B',
    ownerId: '500000000000000099',
    roles: [{ id: GUILD_B, name: '@everyone', permissions: VIEW }],
  });
  t.discord.oauth.addPerson(PLAIN, 'plain', { [GUILD_A]: [] });
  t.discord.oauth.addPerson(MOD, 'moderator', { [GUILD_A]: ['600000000000000001'] });
});

afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  for (const s of await t.h.subscriptions.list())
    await t.h.subscriptions.remove(s.platform, s.channelId, s.id);
  const add = async (platform: string, channelId: string, workspaceId: string) =>
    (
      await t.h.subscriptions.add({
        platform,
        channelId,
        workspaceId,
        feed: 'posts',
        filters: {},
        threading: {},
        createdBy: 'seed',
      })
    ).subscription;
  subs['slack'] = await add('slack', SLACK_CHANNEL, TEAM);
  subs['slackOther'] = await add('slack', OTHER_SLACK_CHANNEL, OTHER_TEAM);
  subs['a'] = await add('discord', CHANNEL_A, GUILD_A);
  subs['b'] = await add('discord', CHANNEL_B, GUILD_B);
  t.announced.length = 0;
});

async function slackSignIn(person: typeof ADMIN, client = new PanelClient()) {
  t.slack.oidc.signedIn = person;
  const landed = await client.follow(`${t.url}/signin/slack`);
  return { client, landed };
}

async function discordSignIn(userId: string, client = new PanelClient()) {
  t.discord.oauth.signedIn = userId;
  const landed = await client.follow(`${t.url}/signin/discord`);
  return { client, landed };
}

const pausePath = (s: Subscription) =>
  `${t.url}/channels/${s.platform}/${s.channelId}/subscriptions/${s.id}/pause`;
const isPaused = async (s: Subscription) =>
  (await t.h.subscriptions.list()).find((x) => x.id === s.id)?.paused !== undefined;

describe('control panel: signing in', () => {
  it('signs a Slack admin in through OpenID Connect with state, nonce and PKCE, and shows only their workspace', async () => {
    const { landed } = await slackSignIn(ADMIN);
    expect(landed.status).toBe(200);
    expect(landed.body).toContain('Signed in as <strong>Ada Admin</strong>');
    expect(landed.body).toContain(SLACK_CHANNEL);
    expect(landed.body).not.toContain(OTHER_SLACK_CHANNEL);
    expect(landed.body).not.toContain(CHANNEL_A);
    const authorize = t.slack.violations.filter((v) => v.startsWith('authorize') || v.startsWith('openid'));
    expect(authorize).toEqual([]);
  });

  it('refuses a forged callback: a code and state this browser never started', async () => {
    const client = new PanelClient();
    const answer = await client.get(`${t.url}/signin/slack/callback?code=stolen&state=forged`);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('was not started here');
    expect((await client.get(`${t.url}/`)).location).toContain('/signin');
  });

  it('refuses a replayed callback: the state is used once', async () => {
    const client = new PanelClient();
    t.slack.oidc.signedIn = ADMIN;
    const toSlack = await client.get(`${t.url}/signin/slack`);
    const back = await client.get(toSlack.location ?? '');
    const callback = back.location ?? '';
    expect((await client.get(callback)).status).toBe(303);
    // The same callback again, in the same browser and in another one.
    expect((await client.get(callback)).status).toBe(400);
    expect((await new PanelClient().get(callback)).status).toBe(400);
  });

  it('refuses an ID token not signed by Slack', async () => {
    t.slack.oidc.forgeSignatures = true;
    try {
      const { landed, client } = await slackSignIn(ADMIN);
      expect(landed.status).toBe(400);
      expect(landed.body).toContain('did not check out');
      expect((await client.get(`${t.url}/`)).location).toContain('/signin');
    } finally {
      t.slack.oidc.forgeSignatures = false;
    }
  });

  it('never redirects off the panel after sign-in', async () => {
    const client = new PanelClient();
    t.slack.oidc.signedIn = ADMIN;
    let answer = await client.get(`${t.url}/signin/slack?next=${encodeURIComponent('//evil.example/x')}`);
    while (answer.location !== undefined && !answer.location.startsWith(t.url))
      answer = await client.get(answer.location);
    answer = await client.get(answer.location ?? '');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${t.url}/`);
  });

  it('keeps the session in a signed HttpOnly SameSite cookie, Secure behind an https proxy, and ends it at sign-out', async () => {
    const client = new PanelClient();
    client.headers = { 'x-forwarded-proto': 'https' };
    await slackSignIn(ADMIN, client);
    const cookie = client.setCookies.at(-1) ?? '';
    expect(cookie).toMatch(/^directory_panel=s%3A/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Expires=/);
    const page = await client.get(`${t.url}/`);
    expect(page.status).toBe(200);
    const stolen = client.cookieHeader(new URL(t.url));
    expect((await client.post(`${t.url}/signout`, { _csrf: PanelClient.csrf(page) })).status).toBe(303);
    // The old cookie no longer opens anything, even replayed by someone who copied it.
    const replay = new PanelClient();
    replay.headers = { cookie: stolen };
    expect((await replay.get(`${t.url}/`)).location).toContain('/signin');
  });

  it('limits sign-in attempts per address', async () => {
    const client = new PanelClient();
    // Another address (the loopback proxy is trusted), so the other tests keep their allowance.
    client.headers = { 'x-forwarded-for': '203.0.113.7' };
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMIT + 2; i += 1)
      statuses.push((await client.get(`${t.url}/signin/slack`)).status);
    expect(statuses.slice(0, SIGN_IN_LIMIT).every((s) => s === 303)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('signs a Discord member in with OAuth2 (identify, guilds) and shows only the servers they share with the bot', async () => {
    const { landed } = await discordSignIn(PLAIN);
    expect(landed.status).toBe(200);
    expect(landed.body).toContain(CHANNEL_A);
    expect(landed.body).not.toContain(CHANNEL_B);
    expect(landed.body).not.toContain(SLACK_CHANNEL);
    expect(t.discord.problems).toEqual([]);
  });
});

describe('control panel: who sees and changes what', () => {
  it('answers a person of workspace A asking for workspace B’s channel by id exactly as for no channel', async () => {
    const { client } = await discordSignIn(PLAIN);
    const other = await client.get(`${t.url}/channels/discord/${CHANNEL_B}`);
    const none = await client.get(`${t.url}/channels/discord/400000000000000999`);
    expect(other.status).toBe(404);
    expect(none.status).toBe(404);
    expect(other.body).toBe(
      none.body.replace(
        /name="_csrf" value="[^"]+"/,
        /name="_csrf" value="[^"]+"/.exec(other.body)?.[0] ?? '',
      ),
    );
    const page = await client.get(`${t.url}/channels/discord/${CHANNEL_A}`);
    const subB = subs['b'] as Subscription;
    const post = await client.post(pausePath(subB), { _csrf: PanelClient.csrf(page) });
    expect(post.status).toBe(404);
    expect(await isPaused(subB)).toBe(false);
    // A Slack person of another team, where the bot is not installed, sees nothing at all.
    const stranger = await slackSignIn(STRANGER);
    expect(stranger.landed.body).toContain('not installed in any workspace or server you belong to');
    expect((await stranger.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}`)).status).toBe(404);
  });

  it('answers "why" only in channels the person may see: another workspace’s or server’s channel answers as none, with nothing of it', async () => {
    const post = t.h.emulator.admin.addPost({ name: 'Whispering airship', tagline: 'Not for strangers' });
    const item = encodeURIComponent(String(post['discussion_url']));
    const why = (platform: string, channelId: string) =>
      `${t.url}/channels/${platform}/${channelId}/why?item=${item}`;
    const cases = [
      { who: await slackSignIn(ADMIN), own: subs['slack'], other: subs['slackOther'] },
      { who: await discordSignIn(PLAIN), own: subs['a'], other: subs['b'] },
    ];
    for (const { who, own, other } of cases) {
      if (own === undefined || other === undefined) throw new Error('seeded in beforeEach');
      // In their own channel the item is explained: its title and a line for the subscription.
      const mine = await who.client.get(why(own.platform, own.channelId));
      expect(mine.status).toBe(200);
      expect(mine.body).toContain('Whispering airship');
      expect(mine.body).toContain(own.id);
      const refused = await who.client.get(why(other.platform, other.channelId));
      expect(refused.status).toBe(404);
      expect(refused.body).not.toContain('Whispering airship');
      expect(refused.body).not.toContain(other.id);
      expect(refused.body).not.toContain(other.channelId);
    }
  });

  it('refuses a Discord member without Manage Channels a change, in the command’s words, and lets a moderator make it', async () => {
    const sub = subs['a'] as Subscription;
    const { client } = await discordSignIn(PLAIN);
    const page = await client.get(`${t.url}/channels/discord/${CHANNEL_A}`);
    expect(page.body).toContain('You can read this channel');
    const refused = await client.post(pausePath(sub), { _csrf: PanelClient.csrf(page) });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(
      'You cannot change this channel&#39;s subscriptions. Only members with the Manage Channels permission',
    );
    expect(await isPaused(sub)).toBe(false);
    const mod = await discordSignIn(MOD);
    const modPage = await mod.client.get(`${t.url}/channels/discord/${CHANNEL_A}`);
    const done = await mod.client.post(pausePath(sub), { _csrf: PanelClient.csrf(modPage) });
    expect(done.status).toBe(303);
    expect(await isPaused(sub)).toBe(true);
  });

  it('follows a channel overwrite that takes Manage Channels away from the moderators', async () => {
    const sub = subs['a'] as Subscription;
    t.discord.oauth.overwrites.set(CHANNEL_A, [
      { id: '600000000000000001', type: 0, allow: 0n, deny: MANAGE_CHANNELS },
    ]);
    try {
      const { client } = await discordSignIn(MOD);
      const page = await client.get(`${t.url}/channels/discord/${CHANNEL_A}`);
      expect((await client.post(pausePath(sub), { _csrf: PanelClient.csrf(page) })).status).toBe(403);
      expect(await isPaused(sub)).toBe(false);
    } finally {
      t.discord.oauth.overwrites.delete(CHANNEL_A);
    }
  });

  it('refuses a Slack member who is not an admin, and lets the admin change the channel', async () => {
    const sub = subs['slack'] as Subscription;
    const member = await slackSignIn(MEMBER);
    const page = await member.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}`);
    const refused = await member.client.post(pausePath(sub), { _csrf: PanelClient.csrf(page) });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Only workspace admins and owners');
    expect(await isPaused(sub)).toBe(false);
    const admin = await slackSignIn(ADMIN);
    const adminPage = await admin.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}`);
    expect((await admin.client.post(pausePath(sub), { _csrf: PanelClient.csrf(adminPage) })).status).toBe(
      303,
    );
    expect(await isPaused(sub)).toBe(true);
  });

  it('refuses a cross-site POST: no token, another session’s token, a forged origin', async () => {
    const sub = subs['slack'] as Subscription;
    const admin = await slackSignIn(ADMIN);
    admin.client.headers = { origin: 'https://evil.example' };
    expect((await admin.client.post(pausePath(sub), {})).status).toBe(403);
    const other = await slackSignIn(ADMIN);
    const foreign = PanelClient.csrf(await other.client.get(`${t.url}/`));
    const forged = await admin.client.post(pausePath(sub), { _csrf: foreign });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('did not come from this page of the panel');
    expect(await isPaused(sub)).toBe(false);
  });

  it('runs a change as the command, records who made it, and announces it in the channel', async () => {
    const admin = await slackSignIn(ADMIN);
    const form = await admin.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}/subscribe`);
    const bad = await admin.client.post(`${t.url}/channels/slack/${SLACK_CHANNEL}/subscribe`, {
      _csrf: PanelClient.csrf(form),
      feed: 'comments',
      'min-votes': '5',
    });
    expect(bad.status).toBe(400);
    // The typed command's own sentence, shown at the input it is about.
    const typed = await t.h.handler.handle({
      platform: 'slack',
      channelId: SLACK_CHANNEL,
      workspaceId: TEAM,
      actor: { userId: ADMIN.userId, canManageChannel: true },
      text: 'subscribe comments --min-votes 5',
    });
    expect(bad.body).toContain(typed.text);
    expect(bad.body).toMatch(/id="f-min-votes"[^>]*aria-invalid="true"/);
    const good = await admin.client.post(`${t.url}/channels/slack/${SLACK_CHANNEL}/subscribe`, {
      _csrf: PanelClient.csrf(form),
      feed: 'comments',
      keyword: 'launch',
      format: 'compact',
    });
    expect(good.status).toBe(303);
    expect(good.location).toMatch(/\/subscriptions\/s[0-9a-f]+\/preview$/);
    const history = await admin.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}/history`);
    expect(history.body).toContain(
      'Ada Admin</strong> (control panel): <code>subscribe comments --keyword launch --format compact</code>',
    );
    expect(t.announced).toHaveLength(1);
    expect(t.announced[0]?.message.text).toContain('Ada Admin: Subscribed this channel to comments');
  });

  it('carries no token, client secret or session secret in any page', async () => {
    const admin = await slackSignIn(ADMIN);
    const pages = [
      await admin.client.get(`${t.url}/`),
      await admin.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}`),
      await admin.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}/subscribe`),
      await admin.client.get(`${t.url}/channels/slack/${SLACK_CHANNEL}/history`),
      await new PanelClient().get(`${t.url}/signin/slack/callback?state=x&code=y`),
    ];
    for (const page of pages) {
      for (const secret of [
        SLACK_BOT_TOKEN,
        SLACK_CLIENT.secret,
        DISCORD_TOKEN,
        DISCORD_CLIENT.secret,
        SESSION_SECRET,
        'xoxp-',
      ]) {
        expect(page.body).not.toContain(secret);
      }
      expect(page.headers['content-security-policy']).toBe(
        "default-src 'none';style-src 'self';img-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
      );
      expect(page.body).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    }
  });
});
