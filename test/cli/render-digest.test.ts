import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_RENDERERS } from '../../src/app/platforms.js';
import { createRenderCommand } from '../../src/cli/render-command.js';
import { type Harness, startHarness } from '../support/command-harness.js';

/** Raw records as the directory serves them, found on Wed 8 and Thu 9 March 2017 (UTC). */
const SITE = 'https://www.example-directory.test/posts/';

function v2Post(id: number, name: string, votes: number, comments: number, createdAt: string) {
  const slug = name.toLowerCase().replaceAll(' ', '-');
  return {
    id: String(id),
    name,
    tagline: `About ${name}`,
    url: SITE + slug,
    votesCount: votes,
    commentsCount: comments,
    createdAt,
    makers: [],
    topics: { edges: [] },
  };
}

const POSTS = [
  v2Post(1, 'Analytical Engine', 120, 14, '2017-03-08T10:00:00Z'),
  v2Post(2, 'Difference Engine', 96, 22, '2017-03-08T12:30:00Z'),
  v2Post(3, 'Jacquard Loom', 96, 9, '2017-03-09T07:15:00Z'),
  v2Post(4, 'Tabulating Machine', 81, 5, '2017-03-09T07:40:00Z'),
];

function v1Comment(id: number, minute: number, body = `Comment number ${id} <!channel>`) {
  return {
    id,
    body,
    created_at: `2017-03-09T08:${String(minute).padStart(2, '0')}:00.000Z`,
    url: `${SITE}analytical-engine?comment=${id}`,
    post_id: 1,
    user: { id: 7, name: 'Ada', username: 'ada' },
  };
}

/** `render` as `directory-bot render` runs it: the real renderers, records on stdin. */
async function render(argv: string[], records: unknown) {
  const out: string[] = [];
  const err: string[] = [];
  const stdin = new PassThrough();
  stdin.end(JSON.stringify(records));
  const code = await createRenderCommand(MESSAGE_RENDERERS, { stdin }).run(argv, {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('directory-bot render --digest', () => {
  it('prints the top-N digest of pasted posts on the console, ranked, in the zone asked for', async () => {
    const result = await render(
      ['-p', 'console', '--digest', 'daily@09:00', '--top', '3', '--tz', 'Europe/Berlin'],
      { data: { posts: { edges: POSTS.map((node) => ({ node })) } } },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'Top 3 posts · Thu 9 Mar',
        '',
        '  The 3 with the most votes of 4 posts found since Wed 8 Mar 09:00.',
        '',
        '  1. Analytical Engine — 120 votes · 14 comments',
        `     → ${SITE}analytical-engine`,
        '  2. Difference Engine — 96 votes · 22 comments',
        `     → ${SITE}difference-engine`,
        '  3. Jacquard Loom — 96 votes · 9 comments',
        `     → ${SITE}jacquard-loom`,
        '',
        '  Directory · daily digest · times in Europe/Berlin · 2017-03-09 08:00 UTC',
      ].join('\n'),
    );
  });

  it('lists every item oldest first without --top, in UTC by default, as one Slack payload', async () => {
    const result = await render(['-p', 'slack', '--digest', 'hourly', '--format', 'title'], POSTS);
    expect(result.code).toBe(0);
    const payload = JSON.parse(result.stdout);
    expect(payload.blocks[0].text.text).toBe('4 new posts since Wed 8 Mar 10:00');
    const list = payload.blocks.map((block: { text?: { text: string } }) => block.text?.text).join('\n');
    expect(list.indexOf('Analytical Engine')).toBeLessThan(list.indexOf('Tabulating Machine'));
    expect(list).toContain(`<${SITE}tabulating-machine|Tabulating Machine> — 07:40 · 81 votes · 5 comments`);
    expect(JSON.stringify(payload)).toContain('hourly digest · times in UTC');
  });

  it('splits a long digest into parts "(1/2)", "(2/2)": a JSON array of payloads, no one pinged', async () => {
    const comments = { comments: Array.from({ length: 25 }, (_, i) => v1Comment(500 + i, i)) };
    for (const platform of ['slack', 'discord']) {
      const result = await render(['-p', platform, '--digest', 'weekly@mon-09:00'], comments);
      expect(result.code, result.stderr).toBe(0);
      const parts = JSON.parse(result.stdout);
      // Discord's markdown escapes the parentheses of the title.
      const headline = (part: { blocks?: { text: { text: string } }[]; embeds?: { title: string }[] }) =>
        (part.blocks?.[0]?.text.text ?? part.embeds?.[0]?.title ?? '').replaceAll('\\', '');
      expect(parts.map(headline)).toEqual([
        '25 new comments since Mon 6 Mar 09:00 (1/2)',
        '25 new comments since Mon 6 Mar 09:00 (2/2)',
      ]);
      const text = result.stdout;
      expect(text).not.toMatch(/[^\\;]<!channel>/);
      for (const id of [500, 524]) expect(text).toContain(`?comment=${id}`);
    }
    const discord = JSON.parse((await render(['-p', 'discord', '--digest', 'hourly'], comments)).stdout);
    expect(discord.every((part: { allowed_mentions: unknown }) => part.allowed_mentions !== undefined)).toBe(
      true,
    );
  });

  it('holds at most 100 items as the bot does and says how many more it did not keep', async () => {
    const many = Array.from({ length: 103 }, (_, i) => v1Comment(1000 + i, i % 60, `Note ${i}`));
    const result = await render(['-p', 'console', '--digest', 'daily@09:00'], many);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('100 new comments since');
    expect(result.stdout).toContain('3 more items were found in this period but not kept (the oldest)');
  });

  it('names the digest options in its help', async () => {
    const help = await render(['--help'], []);
    expect(help.stdout).toContain('[--digest SPEC [--top N] [--tz ZONE]] [FILE|-]');
    expect(help.stdout).toContain('--digest         hourly | daily@HH:MM | weekly@ddd-HH:MM');
  });

  it('refuses records of several feeds, or of none, and says why', async () => {
    const mixed = await render(['-p', 'console', '--digest', 'hourly'], [POSTS[0], v1Comment(9, 1)]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      'A digest collects the items of one feed, but these records are posts and comments',
    );
    const user = await render(['-p', 'console', '--digest', 'hourly', '-k', 'user'], {
      id: '1',
      name: 'Ada',
      username: 'ada',
    });
    expect(user.code).toBe(2);
    expect(user.stderr).toContain('user records belong to no feed');
  });
});

describe('render --digest says what /directory subscribe says about the same options', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it.each([
    ['posts', '--digest daily@25:00'],
    ['posts', '--digest every-morning'],
    ['posts', '--digest weekly@someday-09:00'],
    ['posts', '--digest daily@09:00 --top 0'],
    ['posts', '--digest daily@09:00 --top 51'],
    ['posts', '--top 5'],
    ['posts', '--digest hourly --tz Berlin'],
    ['posts', '--digest hourly --tz +02:00'],
    ['posts', '--tz Asia/Tokyo'],
    ['comments', '--digest hourly --top 5'],
  ])('%s %s', async (feed, options) => {
    const reply = await harness.run(`subscribe ${feed} ${options}`, { canManageChannel: true });
    expect(reply.error).toMatchObject({ code: 'command_usage' });
    const records = feed === 'posts' ? POSTS : [v1Comment(1, 1)];
    const kind = feed === 'posts' ? [] : ['--kind', 'comment'];
    const result = await render(['-p', 'console', ...kind, ...options.split(' ')], records);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([reply.text, 'Run "directory-bot render --help" for usage.']);
  });

  it('checks --top against the feed of the records read when no --kind names it', async () => {
    const result = await render(['-p', 'console', '--digest', 'hourly', '--top', '5'], [v1Comment(1, 1)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--top ranks posts by votes: it applies to the posts feed only, not comments.\nRun "directory-bot render --help"',
    );
  });

  it('says what SUBSCRIPTIONS says of a --top that is no number (the command’s parser checks its type first)', async () => {
    const result = await render(['-p', 'console', '--digest', 'hourly', '--top', 'five'], POSTS);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--top must be a whole number from 1 to 50, got "five".');
  });
});
