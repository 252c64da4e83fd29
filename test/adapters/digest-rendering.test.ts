import { describe, expect, it } from 'vitest';
import { renderConsoleMessage } from '../../adapters/console/render-console-message.js';
import { renderDiscordMessage } from '../../adapters/discord/render-message.js';
import { renderSlackMessage } from '../../adapters/slack/render-message.js';
import type { HeldItem } from '../../src/messages/digest-input.js';
import { composeDigest } from '../../src/messages/index.js';
import type { Message } from '../../src/ports/index.js';
import { documentedLimitProblems } from '../fakes/discord/fake-discord-rest.js';
import { blockKitViolations } from '../fakes/slack/block-kit-limits.js';
import { dailyDigest, heldPost } from '../support/held-items.js';

/**
 * Digests as the real renderers draw them: every part of any digest composeDigest makes fits one
 * Slack message and one Discord message whole (no line cut or dropped), and no name in it can
 * ping anyone.
 */

const URL_BASE = 'https://www.example-directory.test/posts/';

/** 200 posts whose names are the worst case for each platform's escaping, with long links. */
function worstCase(name: (i: number) => string): HeldItem[] {
  return Array.from({ length: 200 }, (_, i) =>
    heldPost(i, {
      votes: 1_000_000 + i,
      comments: 1_000_000 + i,
      name: name(i),
      url: `${URL_BASE}${'p'.repeat(330)}-${i}`,
    }),
  );
}

const WORST_CASES: Record<string, HeldItem[]> = {
  // Slack turns & into &amp; (five times as long); Discord puts a backslash before each of these.
  ampersands: worstCase((i) => `${i} ${'&'.repeat(300)}`),
  markdown: worstCase((i) => `${i} ${'*_`~|[]()<>#'.repeat(30)}`),
  'long words': worstCase((i) => `${i} ${'word '.repeat(100)}`),
  emoji: worstCase((i) => `${i} ${'🚀'.repeat(120)}`),
};

/**
 * Every message of the digest in each layout: numbered parts, the one message in the channel
 * with its thread replies, and the one message summarising the rest (issue 29). The first carries
 * the most text besides its list (late, what it holds, where the rest is, what was not kept).
 */
function partsOf(items: HeldItem[], top?: number): Message[] {
  const input = dailyDigest(items, {
    ...(top === undefined ? {} : { top }),
    lateFor: Date.parse('2026-11-22T08:00:00Z'),
    omitted: 1_000_000,
  });
  return [
    ...composeDigest(input, { rest: 'parts' }),
    ...composeDigest(input, { rest: 'thread' }),
    ...composeDigest(input, { rest: 'summary', seeMore: '/directory digest s1a2b3c 2' }),
  ];
}

function linksIn(payload: unknown): number {
  return JSON.stringify(payload).split(URL_BASE).length - 1;
}

describe('digest parts within Slack Block Kit limits', () => {
  for (const [name, items] of Object.entries(WORST_CASES)) {
    it(`every part of a 200-item digest (${name}) is a valid message showing all its lines`, () => {
      for (const list of [partsOf(items), partsOf(items, 50)]) {
        expect(list.length).toBeGreaterThan(1);
        for (const part of list) {
          const payload = renderSlackMessage(part);
          expect(blockKitViolations(payload.blocks)).toEqual([]);
          expect(payload.blocks.length).toBeLessThanOrEqual(50);
          expect(linksIn(payload.blocks)).toBe(part.entries?.length);
          expect(JSON.stringify(payload.blocks)).not.toContain('more"');
        }
      }
    });
  }
});

describe('digest parts within Discord limits', () => {
  for (const [name, items] of Object.entries(WORST_CASES)) {
    it(`every part of a 200-item digest (${name}) is one embed within 4,096 / 6,000 showing all its lines`, () => {
      for (const list of [partsOf(items), partsOf(items, 50)]) {
        for (const part of list) {
          const body = renderDiscordMessage(part);
          expect(documentedLimitProblems(body)).toEqual([]);
          expect(body.embeds).toHaveLength(1);
          const description = body.embeds?.[0]?.description ?? '';
          expect(description.length).toBeLessThanOrEqual(4096);
          expect(linksIn(description)).toBe(part.entries?.length);
          expect(description).not.toMatch(/…and \d+ more$/);
        }
      }
    });
  }
});

describe('a digest list composed elsewhere, too long for one message', () => {
  const entries = Array.from({ length: 400 }, (_, i) => ({
    title: `Item ${i} ${'&*'.repeat(200)}`,
    url: `${URL_BASE}${i}`,
    rank: i + 1,
  }));
  const message: Message = { kind: 'digest', title: 'Too many', fallback: 'Too many', entries };

  it('is cut at a whole line with how many were left off, within the limits', () => {
    const slack = renderSlackMessage(message);
    expect(blockKitViolations(slack.blocks)).toEqual([]);
    expect(JSON.stringify(slack.blocks.at(-1))).toMatch(/…and \d+ more/);
    const discord = renderDiscordMessage(message);
    expect(documentedLimitProblems(discord)).toEqual([]);
    const description = discord.embeds?.[0]?.description ?? '';
    expect(description).toMatch(/\n…and \d+ more$/);
    // Every line shown is whole: its link is closed.
    for (const line of description.split('\n').slice(0, -1))
      expect(line).toMatch(/^\d+\. \[.*\]\(https:\S+\)$/);
  });
});

describe('names in a digest cannot ping anyone or fake a link', () => {
  const hostile =
    '@everyone @here <!channel> <@U123ABC> <@123456789012345678> [free](https://evil.test) *bold* https://a.test/](https://evil.test/x';
  const [digest] = composeDigest(
    dailyDigest([heldPost(1, { votes: 5, comments: 1, name: hostile })], { top: 5 }),
  );
  if (digest === undefined) throw new Error('no digest');

  it('on Slack', () => {
    const payload = renderSlackMessage(digest);
    const text = JSON.stringify(payload);
    expect(text).not.toMatch(/<!channel>|<@U123ABC>|<!here>|<!everyone>/);
    expect(text).not.toMatch(/@(everyone|here)\b/);
    expect(text).toContain(`<${URL_BASE}launch-1|`);
    expect(payload).not.toHaveProperty('link_names');
  });

  it('on Discord', () => {
    const body = renderDiscordMessage(digest);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const description = body.embeds?.[0]?.description ?? '';
    expect(description).not.toMatch(/@(everyone|here)/);
    expect(description).not.toMatch(/<@\d+>|<@U123ABC>/);
    // The only link is the post's own; the name's fake link is escaped text inside it.
    expect(description).toContain('\\[free\\]\\(https:\\/\\/evil.test\\)');
    expect(description.match(/\]\(/g)).toHaveLength(1);
    expect(description).toMatch(
      new RegExp(`^1\\. \\[.*\\]\\(${URL_BASE}launch-1\\) — 5 votes · 1 comment$`, 'm'),
    );
  });

  it('on the console', () => {
    const [withEscape] = composeDigest(
      dailyDigest([heldPost(1, { votes: 5, name: 'Rocket \u001b[2J\u001b]0;pwned\u0007' })], { top: 5 }),
    );
    const text = renderConsoleMessage(withEscape as Message);
    expect(text).not.toContain('\u001b');
    expect(text).toMatch(/^ {2}1\. Rocket .*— 5 votes$/m);
  });
});

describe('a link with ")" or "|" in it', () => {
  it('stays one whole link on Slack and Discord', () => {
    const url = 'https://www.example-directory.test/posts/engine_(1883)?a=b|c';
    const [digest] = composeDigest(dailyDigest([heldPost(1, { votes: 1, url })], { top: 5 }));
    const encoded = 'https://www.example-directory.test/posts/engine_%281883%29?a=b%7Cc';
    const slack = renderSlackMessage(digest as Message);
    expect(JSON.stringify(slack.blocks)).toContain(`1. <${encoded}|Launch 1> — 1 vote`);
    const discord = renderDiscordMessage(digest as Message);
    expect(discord.embeds?.[0]?.description).toContain(`1. [Launch 1](${encoded}) — 1 vote`);
  });
});

describe('a digest in the sandbox console', () => {
  it('reads as a numbered list with each link under its line', () => {
    const items = [heldPost(1, { votes: 120, comments: 14 }), heldPost(2, { votes: 300, comments: 2 })];
    const [digest] = composeDigest(
      dailyDigest(items, { top: 5, lateFor: Date.parse('2026-11-23T08:00:00Z') }),
    );
    expect(renderConsoleMessage(digest as Message)).toBe(
      [
        'Top 2 posts · Mon 23 Nov',
        '',
        '  Late: this digest was due at Mon 23 Nov 09:00 (the bot was offline).',
        '',
        '  All 2 posts found since Sun 22 Nov 09:00, by votes.',
        '',
        '  1. Launch 2 — 300 votes · 2 comments',
        `     → ${URL_BASE}launch-2`,
        '  2. Launch 1 — 120 votes · 14 comments',
        `     → ${URL_BASE}launch-1`,
        '',
        '  Directory · daily digest · times in Europe/Berlin · 2026-11-23 08:00 UTC',
      ].join('\n'),
    );
  });
});
