import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { renderConsoleMessage } from '../../adapters/console/index.js';
import { renderDiscordMessage } from '../../adapters/discord/index.js';
import { renderSlackMessage } from '../../adapters/slack/index.js';
import type { CliIo } from '../../src/cli/io.js';
import { createRenderCommand, type MessageRenderers } from '../../src/cli/render-command.js';
import type { Message } from '../../src/ports/index.js';
import { rawV1Collection, rawV1Comment, rawV1LiveEvent, rawV2Post } from '../fixtures/render-cli-records.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir('render-command-');
afterAll(() => temp.cleanup());

function captureIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (line) => out.push(line), stderr: (line) => err.push(line) };
}

const renderers: MessageRenderers = {
  console: async (message: Message) => renderConsoleMessage(message),
  slack: async (message: Message) => ({
    text: message.fallback,
    blocks: [{ type: 'header', title: message.title }],
  }),
  discord: undefined,
};

function stdinWith(text: string): PassThrough {
  const stream = new PassThrough();
  stream.end(text);
  return stream;
}

function fileWith(name: string, content: unknown): string {
  const path = join(temp.path, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function run(argv: string[], stdin = stdinWith('')) {
  const io = captureIo();
  const code = await createRenderCommand(renderers, { stdin }).run(argv, io);
  return { code, stdout: io.out.join('\n'), stderr: io.err.join('\n') };
}

describe('directory-bot render', () => {
  it('prints console text for a V1 comment read from a file, saying what kind it guessed', async () => {
    const result = await run(['--platform', 'console', fileWith('comment.json', rawV1Comment)]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Guessed --kind comment because it has "body"; pass --kind to override.');
    expect(result.stdout).toContain('New comment\n  by someone\n');
    expect(result.stdout).toContain('<!channel> @everyone <@U123ABC>');
    expect(result.stdout).not.toContain('REDACTED');
  });

  it('prints the renderer’s payload as 2-space JSON for slack, reading stdin', async () => {
    const result = await run(['-p', 'slack', '--kind', 'post', '-'], stdinWith(JSON.stringify(rawV2Post)));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      text: 'New post: Analytical Engine — Computes Bernoulli numbers',
      blocks: [{ type: 'header', title: 'Analytical Engine' }],
    });
    expect(result.stdout).toContain('\n  "text"');
  });

  it('reads stdin when no file is given and unwraps a GraphQL answer', async () => {
    const result = await run(
      ['--platform', 'console'],
      stdinWith(JSON.stringify({ data: { post: rawV2Post } })),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.startsWith('Analytical Engine\n')).toBe(true);
  });

  it('renders every post of a pasted V2 GraphQL answer, with or without "data", "edges" or "nodes"', async () => {
    const second = { ...rawV2Post, id: '98115', name: 'Difference Engine' };
    const connection = { edges: [{ node: rawV2Post }, { node: second }], pageInfo: { hasNextPage: true } };
    for (const answer of [
      { data: { posts: connection } },
      { posts: connection },
      { data: { posts: { nodes: [rawV2Post, second] } } },
    ]) {
      const result = await run(['--platform', 'console'], stdinWith(JSON.stringify(answer)));
      expect(result.code, JSON.stringify(answer)).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.startsWith('Analytical Engine\n')).toBe(true);
      expect(result.stdout).toContain('\n\nDifference Engine\n');
    }
    const slack = await run(['-p', 'slack'], stdinWith(JSON.stringify({ data: { posts: connection } })));
    expect(slack.code).toBe(0);
    expect(JSON.parse(slack.stdout).map((p: { blocks: { title: string }[] }) => p.blocks[0]?.title)).toEqual([
      'Analytical Engine',
      'Difference Engine',
    ]);
  });

  it('renders every record of a V1 list and of a JSON array, guessing each kind once', async () => {
    const list = await run([
      '--platform',
      'console',
      fileWith('comments.json', { comments: [rawV1Comment, rawV1Comment] }),
    ]);
    expect(list.code).toBe(0);
    expect(list.stdout.match(/^New comment$/gm)).toHaveLength(2);
    const array = await run([
      '--platform',
      'console',
      fileWith('mixed.json', [rawV1Comment, rawV1LiveEvent, rawV1Comment]),
    ]);
    expect(array.code).toBe(0);
    expect(array.stderr.split('\n')).toEqual([
      'Guessed --kind comment because it has "body"; pass --kind to override.',
      'Guessed --kind live because it has "starts_at"; pass --kind to override.',
    ]);
    expect(array.stdout).toContain('Starts: Fri 10 Mar 2017, 18:00 UTC');
    expect(array.stdout.match(/^New comment$/gm)).toHaveLength(2);
  });

  it('prints the valid records of a list, names the invalid ones by position, and exits 1', async () => {
    const { body: _body, ...noBody } = rawV1Comment;
    const path = fileWith('some-bad.json', { comments: [rawV1Comment, noBody] });
    const result = await run(['--platform', 'console', path]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('New comment');
    expect(result.stderr).toBe(`Record 2 of 2 (V1 comment) from "${path}" is not valid:\n  - body: missing`);
  });

  it('says which shapes it reads when it cannot tell what was pasted, or there is nothing in it', async () => {
    const unknown = await run(['--platform', 'console'], stdinWith('{"result": {"id": 1}}'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Could not tell what kind of record this is; pass --kind');
    const unknownItem = await run(
      ['--platform', 'console'],
      stdinWith(JSON.stringify([rawV1Comment, { id: 1 }])),
    );
    expect(unknownItem.code).toBe(2);
    expect(unknownItem.stderr).toContain('Could not tell what kind of record item 2 of 2 is; pass --kind');
    for (const shape of [
      'a V2 GraphQL answer',
      '{"data": {"posts": {"edges": [{"node"',
      'a V1 list',
      'a JSON array',
    ]) {
      expect(unknown.stderr).toContain(shape);
    }
    const empty = await run(['--platform', 'console'], stdinWith('{"comments": []}'));
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Nothing to render from stdin: the list holds no records.');
    expect(empty.stderr).toContain('a V1 list');
    const errors = await run(
      ['--platform', 'console'],
      stdinWith('{"data": null, "errors": [{"message": "Complexity too high"}]}'),
    );
    expect(errors.code).toBe(1);
    expect(errors.stderr).toContain('the GraphQL answer holds no data, only the error "Complexity too high"');
  });

  it('renders a live event and a collection by their guessed kinds', async () => {
    const live = await run(['--platform', 'console', fileWith('live.json', rawV1LiveEvent)]);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('Starts: Fri 10 Mar 2017, 18:00 UTC');
    const collection = await run(['--platform', 'console', fileWith('collection.json', rawV1Collection)]);
    expect(collection.code).toBe(0);
    expect(collection.stderr).toContain('--kind collection');
    expect(collection.stdout).toContain('Posts: 7 · Subscribers: 44');
  });

  it('exits 1 naming each failing path when the record is invalid', async () => {
    const { body: _body, ...noBody } = rawV1Comment;
    const path = fileWith('bad.json', { ...noBody, created_at: 'yesterday' });
    const result = await run(['--platform', 'console', '--kind', 'comment', path]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `The V1 comment record from "${path}" is not valid:\n  - body: missing\n  - created_at: not an ISO 8601 timestamp: yesterday`,
    );
  });

  it('exits 1 when the platform’s renderer is not wired in', async () => {
    const result = await run(['--platform', 'discord', fileWith('c.json', rawV1Comment)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Rendering for discord is not available');
  });

  it('exits 1 on input that is not JSON or a file that does not exist', async () => {
    const notJson = await run(['--platform', 'console', fileWith('x.json', '{"id": 1,')]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/x\.json" is not valid JSON/);
    const missing = await run(['--platform', 'console', join(temp.path, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Could not read ".*nope\.json": ENOENT/);
  });

  it.each([
    [[], '--platform is required'],
    [['--platform', 'teams'], '--platform must be one of console, slack, discord, not "teams"'],
    [['-p', 'console', '--kind', 'topic'], '--kind must be one of'],
    [['-p', 'console', 'a.json', 'b.json'], 'Give one file (or -), not 2'],
    [['-p', 'console', '--bogus'], '--bogus'],
    [['-p', 'console', '--format', 'tiny'], '--format must be one of full, compact, title, not "tiny"'],
  ])('exits 2 on the usage error in %j', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('render --help');
  });

  it('exits 2 asking for --kind when the record cannot be recognised', async () => {
    const result = await run(['--platform', 'console'], stdinWith('{"id": 1, "name": "x"}'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --kind');
  });

  it('exits 2 instead of waiting when stdin is a terminal and no file is given', async () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const result = await run(['--platform', 'console'], tty);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Give a file, or pipe one JSON record on stdin.');
  });

  it('prints its usage with --help', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: directory-bot render --platform console|slack|discord');
  });
});

describe('directory-bot render --format', () => {
  const real: MessageRenderers = {
    console: async (message) => renderConsoleMessage(message),
    slack: async (message) => renderSlackMessage(message),
    discord: async (message) => renderDiscordMessage(message),
  };
  const LINK = 'https://www.example-directory.test/posts/analytical-engine?comment=402133';

  async function render(platform: string, format: string) {
    const io = captureIo();
    const argv = ['-p', platform, '-k', 'comment', '--format', format, '-'];
    const code = await createRenderCommand(real, { stdin: stdinWith(JSON.stringify(rawV1Comment)) }).run(
      argv,
      io,
    );
    expect(code).toBe(0);
    return io.out.join('\n');
  }

  it('prints the full card by default and for full, one linked summary line for compact, the title for title', async () => {
    const full = await render('console', 'full');
    expect(full).toBe(
      await run(['-p', 'console', '-k', 'comment', fileWith('full.json', rawV1Comment)]).then(
        (r) => r.stdout,
      ),
    );
    expect(full).toContain('  by someone\n');
    expect(await render('console', 'compact')).toBe(
      `New comment by someone: Congrats on the launch! <!channel> @everyone <@U123ABC> → ${LINK}`,
    );
    expect(await render('console', 'title')).toBe(`New comment → ${LINK}`);
  });

  it('prints the exact Slack and Discord payloads of each format, escaped so the comment pings no one', async () => {
    const slack = JSON.parse(await render('slack', 'compact'));
    expect(slack.blocks).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `<${LINK}|New comment by someone: Congrats on the launch! &lt;!channel&gt; @\u200beveryone &lt;@U123ABC&gt;>`,
          verbatim: true,
        },
      },
    ]);
    expect(JSON.parse(await render('slack', 'title')).blocks[0].text.text).toBe(`<${LINK}|New comment>`);
    expect(JSON.parse(await render('slack', 'full')).blocks[0]).toMatchObject({ type: 'header' });

    const discord = JSON.parse(await render('discord', 'compact'));
    expect(discord.embeds).toHaveLength(1);
    expect(discord.embeds[0].url).toBe(LINK);
    expect(discord.embeds[0].title).toContain('New comment by someone: Congrats on the launch!');
    expect(discord.embeds[0].title).not.toContain('@everyone');
    expect(discord.embeds[0]).not.toHaveProperty('description');
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(JSON.parse(await render('discord', 'title')).embeds[0]).toMatchObject({
      title: 'New comment',
      url: LINK,
    });
  });

  it('lists the formats in its help', async () => {
    const result = await run(['--help']);
    expect(result.stdout).toContain('--format, -f     full | compact | title');
  });
});
