import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeDiscordWebhooks } from '../fakes/webhooks/fake-discord-webhooks.js';
import { FakeSlackWebhooks } from '../fakes/webhooks/fake-slack-webhooks.js';
import { BUILT_BOT_CLI } from '../support/built-cli.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * `directory-bot webhook add|list|test|remove`, the compiled CLI as a person runs it: the URL piped
 * on stdin, sealed in the store, shown masked, posted to for a test, refused where it cannot work.
 */

const temp = makeTempDir();
const discord = await new FakeDiscordWebhooks().listen();
const slack = await new FakeSlackWebhooks().listen();
afterAll(async () => {
  await discord.close();
  await slack.close();
  temp.cleanup();
});

const ENV = {
  DIRECTORY_BASE_URL: 'https://directory.example',
  DIRECTORY_TOKEN: 'token-abcdef',
  STORE_URL: `sqlite://${join(temp.path, 'cli.sqlite')}`,
  STORE_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
};

function cli(args: string[], options: { stdin?: string; env?: Record<string, string | undefined> } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env = Object.fromEntries(
      Object.entries({ PATH: process.env['PATH'] ?? '', ...ENV, ...options.env }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [BUILT_BOT_CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

describe('directory-bot webhook', () => {
  const webhook = discord.addWebhook();
  const token = webhook.url.split('/').at(-1) as string;

  it('adds a webhook from stdin with a route, lists it masked, tests it and removes it', async () => {
    const added = await cli(
      ['webhook', 'add', 'news', '--url-from-stdin', 'comments?mention=role:222222222222222222'],
      {
        stdin: `${webhook.url}\n`,
      },
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Stored the discord webhook "news"');
    expect(added.stdout).toContain('Subscribed it to comments');
    expect(added.stdout).not.toContain(token);

    const listed = await cli(['webhook', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /news {2}discord {2}http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/\d+\/\*\*\*\* {2}\(store\)/,
    );
    expect(listed.stdout).toContain('comments pings role:222222222222222222');
    expect(listed.stdout).not.toContain(token);

    const tested = await cli(['webhook', 'test', 'news']);
    expect(tested.stdout).toContain('Delivered a test message to "news"');
    expect(tested.code).toBe(0);
    expect(JSON.stringify([...discord.messages.values()].at(-1)?.body)).toContain(
      'Directory Bot test message',
    );

    const removed = await cli(['webhook', 'remove', 'news']);
    expect(removed.stdout).toContain('Removed the webhook "news" and 1 subscription(s).');
    expect((await cli(['webhook', 'list'])).stdout).toContain('No webhooks.');
  }, 90_000); // several CLI runs, each a Node start: a busy CI machine needs more than 30 s

  it('refuses to store a URL without STORE_ENCRYPTION_KEY (exit 78, naming it)', async () => {
    const result = await cli(['webhook', 'add', 'plain', '--url-from-stdin', 'posts'], {
      stdin: webhook.url,
      env: { STORE_ENCRYPTION_KEY: undefined },
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('STORE_ENCRYPTION_KEY: required to keep a webhook URL in the store');
    expect(result.stderr).not.toContain(token);
  });

  it('says where edits are asked of a webhook that cannot edit, and refuses a mention its platform cannot ping', async () => {
    const slackUrl = slack.addWebhook().url;
    const removal = await cli(['webhook', 'add', 'team', '--url-from-stdin', 'posts?on-removal=delete'], {
      stdin: slackUrl,
    });
    expect(removal.code).toBe(2);
    expect(removal.stderr).toContain('a Slack webhook cannot edit or delete what it posted');
    // Nothing was stored by the refused call: the URL is needed again.
    expect((await cli(['webhook', 'list'])).stdout).not.toContain('team');
    const role = await cli(
      ['webhook', 'add', 'team', '--url-from-stdin', 'posts?mention=role:222222222222222222'],
      {
        stdin: slackUrl,
      },
    );
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('slack-webhook cannot mention a role');
    const unknown = await cli(['webhook', 'test', 'nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('there is no webhook named "nobody"');
  }, 90_000); // several CLI runs, each a Node start: a busy CI machine needs more than 30 s
});
