import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/subscriptions/index.js';
import { channelStory, JUST_NOW } from '../support/channel-story.js';
import {
  type AxeFinding,
  chromiumAvailable,
  launchChromium,
  type RunningChromium,
  seriousViolations,
} from '../support/chromium.js';
import { GUILD_A, type PanelHarness, startPanelHarness, TEAM } from '../support/panel-harness.js';

/**
 * The control panel in a real Chromium (Debian's, through playwright-core): sign-in against the
 * fake Slack and Discord, adding a subscription with the keyboard alone, its preview, an item the
 * engine polled and delivered in the log with its message's link, "why" for it and for a held one
 * (the engine's answer, as `/directory why` gives it), and axe-core on every page. One browser for the file.
 * `PANEL_SCREENSHOTS=<folder>` also saves the main pages there (docs/panel/ holds the ones shown).
 */
const ADMIN = { userId: 'UADMIN0001', teamId: TEAM, teamName: 'Panel Team', name: 'Ada Admin' };
const SLACK_CHANNEL = 'C0PANEL001';
const DISCORD_CHANNEL = '400000000000000001';
const MEMBER = '500000000000000001';
const VIEW = 1n << 10n;
const SHOTS = process.env['PANEL_SCREENSHOTS'];

const available = chromiumAvailable();

describe.skipIf(!available)('the control panel in a browser', () => {
  let chromium: RunningChromium;
  let t: PanelHarness;
  const findings: { page: string; violations: AxeFinding[] }[] = [];
  const cspErrors: string[] = [];

  beforeAll(async () => {
    [chromium, t] = await Promise.all([launchChromium(), startPanelHarness()]);
    t.slack.addUser(ADMIN.userId, { is_admin: true });
    t.slack.addChannel(SLACK_CHANNEL);
    t.slack.oidc.signedIn = ADMIN;
    t.discord.addChannel(DISCORD_CHANNEL, 'ok', GUILD_A);
    t.discord.oauth.addGuild(GUILD_A, {
      name: 'Guild A',
      ownerId: '500000000000000099',
      roles: [{ id: GUILD_A, name: '@everyone', permissions: VIEW }],
    });
    t.discord.oauth.addPerson(MEMBER, 'plain', { [GUILD_A]: [] });
    t.discord.oauth.signedIn = MEMBER;
    // Slack's asks more votes than a new post has: the story's posts are not taken by it.
    for (const [platform, channelId, workspaceId, minVotes] of [
      ['slack', SLACK_CHANNEL, TEAM, 5000],
      ['discord', DISCORD_CHANNEL, GUILD_A, 10],
    ] as const) {
      await t.h.subscriptions.add({
        platform,
        channelId,
        workspaceId,
        feed: 'posts',
        filters: { minVotes },
        threading: {},
        createdBy: 'seed',
      });
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all([chromium?.close(), t?.close()]);
  });

  async function open(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        cspErrors.push(message.text());
    });
    return page;
  }

  /** Checks the page with axe-core (and saves its screenshot when asked). */
  async function check(page: Page, name: string): Promise<void> {
    findings.push({ page: name, violations: await seriousViolations(page) });
    if (SHOTS !== undefined) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** Presses Tab until the focused element matches, as a keyboard-only person would. */
  async function tabTo(
    page: Page,
    matches: (el: { tag: string; id: string; text: string }) => boolean,
  ): Promise<void> {
    for (let i = 0; i < 80; i += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        // Runs in the page (no DOM types here): the element that has the keyboard's focus.
        type Focused = { tagName: string; id: string; textContent: string | null } | null;
        const el = (globalThis as unknown as { document: { activeElement: Focused } }).document.activeElement;
        return {
          tag: el?.tagName.toLowerCase() ?? '',
          id: el?.id ?? '',
          text: (el?.textContent ?? '').trim(),
        };
      });
      if (matches(focused)) return;
    }
    throw new Error('never reached the element with Tab');
  }

  it("a Slack admin signs in, adds a subscription with the keyboard alone, sees its preview, the engine's delivery and why items were posted, filtered and held", async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await open(context);
    await page.goto(`${t.url}/`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await check(page, 'sign-in');
    await tabTo(page, (el) => el.text === 'Sign in with Slack');
    await Promise.all([page.waitForURL(`${t.url}/`), page.keyboard.press('Enter')]);
    await expect(page.getByText('Signed in as', { exact: false }).textContent()).resolves.toContain(
      'Ada Admin',
    );
    await check(page, 'overview');

    await tabTo(page, (el) => el.text === SLACK_CHANNEL);
    await Promise.all([page.waitForURL(`**/channels/slack/${SLACK_CHANNEL}`), page.keyboard.press('Enter')]);
    await check(page, 'channel');
    await tabTo(page, (el) => el.text === 'Add a subscription');
    await Promise.all([page.waitForURL('**/subscribe'), page.keyboard.press('Enter')]);
    await check(page, 'subscribe-form');
    await tabTo(page, (el) => el.id === 'f-feed');
    await page.keyboard.type('comm');
    await tabTo(page, (el) => el.id === 'f-keyword');
    await page.keyboard.type('launch');
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Subscribe');
    await Promise.all([page.waitForURL('**/preview'), page.keyboard.press('Enter')]);
    await expect(page.locator('.notice').textContent()).resolves.toContain(
      'Subscribed this channel to comments',
    );
    await expect(page.locator('figure.slack').first().isVisible()).resolves.toBe(true);
    await expect(page.locator('section.format.current h2').textContent()).resolves.toBe('full (current)');
    await check(page, 'preview');

    const added = (await t.h.subscriptions.forChannel('slack', SLACK_CHANNEL)).find(
      (s: Subscription) => s.feed === 'comments',
    );
    expect(added?.filters.keywords).toEqual(['launch']);
    // The channel's story, told by the engine: two new posts polled from the emulator and delivered
    // to the fake Slack; the delivery log, held items and "why" are the engine's own.
    const s = await channelStory(
      { subscriptions: t.engine.subscriptions, emulator: t.h.emulator, pollAndDeliver: t.pollAndDeliver },
      'slack',
      SLACK_CHANNEL,
      { workspaceId: TEAM },
    );
    const posted = t.slack.callsTo('chat.postMessage').filter((c) => c.response['ok']);
    expect(posted).toHaveLength(1);
    const permalink = `https://fake.slack.com/archives/${SLACK_CHANNEL}/p${String(posted[0]?.response['ts']).replace('.', '')}`;
    await page.goto(`${t.url}/channels/slack/${SLACK_CHANNEL}`);
    const row = page.locator('table tr', { hasText: 'Difference engine slack' });
    await expect(row.textContent()).resolves.toContain('delivered');
    await expect(row.locator('a').getAttribute('href')).resolves.toBe(permalink);
    await expect(page.locator('main').textContent()).resolves.toMatch(
      new RegExp(`${s.digest.id}: 1 item held for the digest`),
    );
    await check(page, 'channel-with-delivery');

    // "Why (not)?" answers with the lines `/directory why` gives (test/e2e/why.test.ts).
    // A subscription's line: the one that begins with its id (another's may name it, as a duplicate's does).
    const verdict = (id: string) =>
      page.locator('li.verdict').filter({ has: page.locator('strong', { hasText: id }) });
    await tabTo(page, (el) => el.id === 'why-item');
    await page.keyboard.type(s.held);
    await Promise.all([page.waitForURL('**/why?item=*'), page.keyboard.press('Enter')]);
    await expect(page.locator('main h2').textContent()).resolves.toContain('Airship engine slack');
    await expect(verdict(s.digest.id).textContent()).resolves.toMatch(
      /Held for the digest, which goes [A-Za-z0-9: ]+ UTC \(in [^)]+\)\./,
    );
    await expect(verdict(s.all.id).textContent()).resolves.toContain(
      `Already taken here by ${s.digest.id}'s schedule`,
    );
    await page.goto(`${t.url}/channels/slack/${SLACK_CHANNEL}/why?item=${encodeURIComponent(s.posted)}`);
    await expect(page.locator('main h2').textContent()).resolves.toContain('Difference engine slack');
    await expect(verdict(s.all.id).textContent()).resolves.toMatch(new RegExp(`Posted here ${JUST_NOW}`));
    await expect(verdict(s.all.id).locator('a').getAttribute('href')).resolves.toBe(permalink);
    await expect(verdict(s.zeppelins.id).textContent()).resolves.toContain(
      'Filtered out by --keyword zeppelin: it does not mention it.',
    );
    await expect(verdict(s.digest.id).textContent()).resolves.toContain(
      'Filtered out by --keyword airship: it does not mention it.',
    );
    // The comments subscription's verdict, every underscore of its name a space.
    await expect(
      verdict(added?.id ?? '')
        .locator('.tag')
        .textContent(),
    ).resolves.toBe('not this feed');
    await check(page, 'why');
    await page.goto(`${t.url}/channels/slack/${SLACK_CHANNEL}/history`);
    await expect(page.locator('ol.history').textContent()).resolves.toContain(
      'subscribe comments --keyword launch',
    );
    await check(page, 'history');
    await page.goto(`${t.url}/channels/slack/${SLACK_CHANNEL}/deliveries`);
    await check(page, 'deliveries');
    await context.close();
  });

  it('a Discord member without Manage Channels signs in, reads their server’s channel and is offered no change', async () => {
    const context = await chromium.browser.newContext();
    const page = await open(context);
    await page.goto(`${t.url}/signin`);
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.waitForURL(`${t.url}/`);
    await expect(page.locator('main').textContent()).resolves.toContain(DISCORD_CHANNEL);
    await expect(page.locator('main').textContent()).resolves.not.toContain(SLACK_CHANNEL);
    await page.getByRole('link', { name: DISCORD_CHANNEL }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('You can read this channel');
    await expect(page.getByRole('link', { name: 'Add a subscription' }).count()).resolves.toBe(0);
    await check(page, 'discord-channel-read-only');
    const sub = (await t.h.subscriptions.forChannel('discord', DISCORD_CHANNEL))[0];
    await page.getByRole('link', { name: 'Preview' }).first().click();
    await expect(page.locator('figure.discord').first().isVisible()).resolves.toBe(true);
    await check(page, 'discord-preview');
    await page.goto(`${t.url}/channels/discord/${DISCORD_CHANNEL}/subscriptions/${sub?.id}/remove`);
    await expect(page.locator('[role=alert]').textContent()).resolves.toContain(
      'Only members with the Manage Channels permission',
    );
    await check(page, 'refused');
    await context.close();
  });

  it('no page has serious or critical accessibility violations, and no page broke its CSP', () => {
    expect(findings.length).toBeGreaterThanOrEqual(10);
    expect(findings.filter((f) => f.violations.length > 0)).toEqual([]);
    expect(cspErrors).toEqual([]);
  });
});
