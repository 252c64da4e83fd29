import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeButtons, homeText } from '../../fakes/slack/home-events.js';
import {
  ADMIN,
  type HomeTabHarness,
  MEMBER,
  OWNER,
  startHomeTab,
  TEAM,
} from '../../support/home-tab-harness.js';

const MANAGER = { canManageChannel: true, userId: 'UMGR' };

describe('the Slack App Home tab', () => {
  let t: HomeTabHarness;

  beforeEach(async () => {
    t = await startHomeTab();
  });
  afterEach(async () => {
    await t.close();
  });

  const homeOf = (userId: string) => t.slack.views.homeOf(TEAM, userId);

  async function subscribed(text: string): Promise<string> {
    const reply = await t.h.run(text, MANAGER);
    expect(reply.error).toBeUndefined();
    return /Id: (s[0-9a-f]+)/.exec(reply.text)?.[1] ?? '';
  }

  it('publishes a manager the channels they can manage, each subscription with its buttons, and the bot status', async () => {
    const posts = await subscribed('subscribe posts --min-votes 10');
    const res = await t.open(ADMIN);
    expect(res.status).toBe(200);
    await t.waitForPublishes(ADMIN, 1);
    const text = homeText(homeOf(ADMIN));
    expect(text).toContain('*<#C0123ABCD>*');
    expect(text).toContain(`\`${posts}\` posts — with at least 10 votes`);
    expect(text).toContain('Active');
    expect(text).toContain('Bot status');
    expect(text).toContain('*V2 requests*');
    expect(homeButtons(homeOf(ADMIN)).map((b) => [b.action_id, b.value])).toEqual([
      ['home:v1:pause', `C0123ABCD:${posts}`],
      ['home:v1:remove', `C0123ABCD:${posts}`],
    ]);
    expect(t.slack.violations).toEqual([]);
  });

  it('shows each schedule as /directory subscriptions does: in its zone, with the next digest', async () => {
    const digest = await subscribed('subscribe posts --digest daily@09:00 --top 5 --tz Europe/Berlin');
    const quiet = await subscribed('subscribe comments --quiet 22:00-07:00 --max-per-day 20 --tz Asia/Tokyo');
    const listed = (await t.h.run('subscriptions', MANAGER)).messages[0]?.text ?? '';
    const described = (id: string) =>
      listed
        .split('\n')
        .find((line) => line.startsWith(`${id}: `))
        ?.slice(`${id}: `.length) ?? '';
    expect(described(digest)).toMatch(
      /^posts .*; digest daily at 09:00 Europe\/Berlin \(next: .+\), top 5 by votes$/,
    );
    expect(described(quiet)).toMatch(/^comments .*; quiet 22:00–07:00 Asia\/Tokyo, max 20\/day$/);
    await t.open(ADMIN);
    await t.waitForPublishes(ADMIN, 1);
    const home = homeText(homeOf(ADMIN));
    for (const id of [digest, quiet]) expect(home).toContain(`\`${id}\` ${described(id)}\nActive`);
  });

  it('shows someone who may not manage channels who can, the status, and no buttons; the Messages tab publishes nothing', async () => {
    await subscribed('subscribe posts');
    await t.open(MEMBER, 'messages');
    await t.open(MEMBER);
    await t.waitForPublishes(MEMBER, 1);
    const text = homeText(homeOf(MEMBER));
    expect(text).toContain('You cannot change subscriptions here. Only workspace admins and owners');
    expect(text).not.toContain('C0123ABCD');
    expect(homeButtons(homeOf(MEMBER))).toEqual([]);
    expect(t.publishedTo(MEMBER)).toBe(1);
  });

  it('pauses from the button as /directory pause would, and republishes once for every recent viewer', async () => {
    const posts = await subscribed('subscribe posts');
    await t.open(ADMIN);
    await t.open(OWNER);
    await t.waitForPublishes(ADMIN, 1);
    await t.waitForPublishes(OWNER, 1);
    const [pause] = homeButtons(homeOf(ADMIN));
    expect((await t.press(ADMIN, pause ?? { action_id: '', value: '' })).status).toBe(200);
    await t.waitForPublishes(ADMIN, 2);
    await t.waitForPublishes(OWNER, 2);
    const [stored] = await t.h.subscriptions.forChannel('slack', 'C0123ABCD');
    expect(stored?.paused).toMatchObject({ code: 'paused_by_user', by: ADMIN });
    expect(homeText(homeOf(ADMIN))).toContain(`:white_check_mark: Paused ${posts}: posts (everything).`);
    expect(homeText(homeOf(OWNER))).toContain('*Paused:* a channel manager paused it (user UADMIN,');
    expect(homeText(homeOf(OWNER))).toContain('*Paused subscriptions*');
    expect(homeButtons(homeOf(OWNER)).map((b) => b.action_id)).toEqual(['home:v1:resume', 'home:v1:remove']);

    // A later viewer's first publish queues behind anything else owed: the earlier two got exactly one each.
    await t.open(MEMBER);
    await t.waitForPublishes(MEMBER, 1);
    expect([t.publishedTo(ADMIN), t.publishedTo(OWNER)]).toEqual([2, 2]);

    const [resume] = homeButtons(homeOf(OWNER));
    await t.press(OWNER, resume ?? { action_id: '', value: '' });
    await t.waitForPublishes(OWNER, 3);
    expect((await t.h.subscriptions.forChannel('slack', 'C0123ABCD'))[0]?.paused).toBeUndefined();
    expect(t.slack.views.rateLimited).toBe(0);
    expect(t.slack.violations).toEqual([]);
  });

  it('keeps open homes current when a command changes a subscription', async () => {
    await t.open(ADMIN);
    await t.waitForPublishes(ADMIN, 1);
    expect(homeText(homeOf(ADMIN))).toContain('No channel here has subscriptions yet.');
    const live = await subscribed('subscribe live --video');
    await t.waitForPublishes(ADMIN, 2);
    expect(homeText(homeOf(ADMIN))).toContain(`\`${live}\` live — on camera only`);
    await t.h.run(`unsubscribe ${live}`, MANAGER);
    await t.waitForPublishes(ADMIN, 3);
    expect(homeText(homeOf(ADMIN))).not.toContain(live);
  });

  it('refuses a click from someone who may not manage the channel, says why, and changes nothing', async () => {
    const posts = await subscribed('subscribe posts');
    await t.open(MEMBER);
    await t.waitForPublishes(MEMBER, 1);
    // A button from a view published when they could manage it, say: the click is checked now.
    await t.press(MEMBER, { action_id: 'home:v1:remove', value: `C0123ABCD:${posts}` });
    await t.waitForPublishes(MEMBER, 2);
    expect(homeText(homeOf(MEMBER))).toContain(
      ":no_entry: You cannot change this channel's subscriptions. Only workspace admins and owners",
    );
    expect(await t.h.subscriptions.forChannel('slack', 'C0123ABCD')).toHaveLength(1);
    expect(t.h.events.at(-1)).toEqual({ command: 'unsubscribe', platform: 'slack', result: 'forbidden' });
  });

  it('says a subscription no longer exists instead of failing, and changes nothing', async () => {
    const posts = await subscribed('subscribe posts');
    const other = await subscribed('subscribe comments');
    await t.open(ADMIN);
    await t.waitForPublishes(ADMIN, 1);
    const remove = homeButtons(homeOf(ADMIN)).find(
      (b) => b.action_id === 'home:v1:remove' && b.value.endsWith(posts),
    );
    await t.h.run(`unsubscribe ${posts}`, MANAGER);
    await t.waitForPublishes(ADMIN, 2);
    await t.press(ADMIN, remove ?? { action_id: '', value: '' });
    await t.waitForPublishes(ADMIN, 3);
    expect(homeText(homeOf(ADMIN))).toContain(`:no_entry: Subscription ${posts} no longer exists`);
    expect((await t.h.subscriptions.list()).map((s) => s.id)).toEqual([other]);
  });

  it('rejects forged and replayed clicks like forged commands, changing nothing', async () => {
    const posts = await subscribed('subscribe posts');
    const button = { action_id: 'home:v1:remove', value: `C0123ABCD:${posts}` };
    expect((await t.press(ADMIN, button, { signWith: 'not-the-secret' })).status).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await t.press(ADMIN, button, { timestamp: stale })).status).toBe(401);
    expect(await t.h.subscriptions.list()).toHaveLength(1);
    expect(t.slack.callsTo('views.publish')).toEqual([]);
  });

  it('stays within 100 blocks with many subscriptions, summarising the rest', async () => {
    for (let i = 0; i < 60; i += 1) {
      await t.h.subscriptions.add({
        platform: 'slack',
        channelId: `C${String(i % 12).padStart(8, '0')}`,
        workspaceId: TEAM,
        feed: 'posts',
        filters: { minVotes: i + 1 },
        createdBy: 'UMGR',
      });
    }
    await t.open(ADMIN);
    await t.waitForPublishes(ADMIN, 1);
    const view = homeOf(ADMIN);
    expect(view?.blocks.length).toBeLessThanOrEqual(100);
    expect(view?.blocks.length).toBeGreaterThan(90);
    const shown = homeButtons(view).filter((b) => b.action_id === 'home:v1:remove').length;
    expect(homeText(view)).toContain(`…and ${60 - shown} more subscription(s) in`);
    expect(t.slack.violations).toEqual([]);
  });
});

describe('the Slack App Home tab under the views.publish tier', () => {
  it('paces republishing within the tier: every viewer gets their one publish and Slack never answers 429', async () => {
    // Time compressed a hundredfold; the bot's pace keeps the same margin under the tier as 90 of 100 a minute.
    const t = await startHomeTab({
      fake: { viewsPublishTier: { limit: 3, windowMs: 600 } },
      publishLimit: { limit: 3, windowMs: 700 },
    });
    try {
      const viewers = ['UV1', 'UV2', 'UV3', 'UV4', 'UV5', 'UV6', 'UV7'];
      for (const id of viewers) {
        t.slack.addUser(id, { is_admin: true });
        await t.open(id);
      }
      for (const id of viewers) await t.waitForPublishes(id, 1);
      await t.h.run('subscribe posts', MANAGER);
      for (const id of viewers) await t.waitForPublishes(id, 2);
      expect(viewers.map((id) => t.publishedTo(id))).toEqual(viewers.map(() => 2));
      expect(t.slack.views.rateLimited).toBe(0);
    } finally {
      await t.close();
    }
  });
});
