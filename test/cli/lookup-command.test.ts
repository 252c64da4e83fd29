import { afterEach, describe, expect, it } from 'vitest';
import type { LookupPlatform } from '../../src/app/lookup-session.js';
import { replyRenderer } from '../../src/app/platforms.js';
import { createLookupCommand } from '../../src/cli/lookup-command.js';
import { type Harness, startHarness } from '../support/command-harness.js';

describe('directory-bot lookup', () => {
  const harnesses: Harness[] = [];
  const built: LookupPlatform[] = [];
  let closed = 0;
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.close()));
    built.length = 0;
    closed = 0;
  });

  /** The same wiring the composition root does: a real handler on a real emulator, its renderers. */
  const command = createLookupCommand(async (platform) => {
    const h = await startHarness();
    harnesses.push(h);
    built.push(platform);
    return {
      handler: h.handler,
      render: await replyRenderer(platform),
      close: async () => {
        closed += 1;
      },
    };
  });

  async function run(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await command.run(argv, { stdout: (l) => out.push(l), stderr: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('prints the console text of a lookup and exits 0', async () => {
    const result = await run(['collections', 'featured']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Latest featured collections');
    expect(built).toEqual(['console']);
    expect(closed).toBe(1);
  });

  it('prints the Slack or Discord payload as JSON with --platform, anywhere in the words', async () => {
    const slack = await run(['--platform', 'slack', 'live', '--video']);
    expect(slack.code).toBe(0);
    expect(JSON.parse(slack.out)).toHaveProperty('blocks');
    const discord = await run(['posts', '--top', '2', '--platform=discord']);
    expect(discord.code).toBe(0);
    expect(JSON.parse(discord.out)).toHaveProperty('flags', 64);
    expect(built).toEqual(['slack', 'discord']);
  });

  it('prints the payload chat gets, with the "Share in channel" button re-running the command', async () => {
    const slack = JSON.parse((await run(['post', '1', '--platform', 'slack'])).out);
    expect(slack.response_type).toBe('ephemeral');
    expect(slack.blocks.at(-1)).toMatchObject({
      type: 'actions',
      elements: [{ text: { text: 'Share in channel' }, action_id: 'directory_share', value: 'post 1' }],
    });
    const discord = JSON.parse((await run(['posts', 'today', '--top', '3', '--platform', 'discord'])).out);
    expect(discord.components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 2, label: 'Share in channel', custom_id: 'directory:share:posts today --top 3' },
        ],
      },
    ]);
  });

  it('reads a whole quoted command line like the chat text it stands for, as --help shows', async () => {
    const featured = await run(['collections featured']);
    expect(featured.code).toBe(0);
    expect(featured.out).toContain('Latest featured collections');
    const post = await run(['post 3']);
    expect(post.code).toBe(0);
    expect(post.out).toContain('Votes');
    const slack = await run(['live upcoming', '--platform', 'slack']);
    expect(slack.code).toBe(0);
    expect(JSON.parse(slack.out)).toHaveProperty('blocks');
  });

  it('keeps a quoted shell word together for the command parser', async () => {
    const result = await run(['post', 'two words']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('<post> expects a post id, slug or directory link, got "two words"');
  });

  it('exits 1 when the reply is an error, and refuses subscription changes from the shell', async () => {
    const unknown = await run(['pots']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('Did you mean');
    const change = await run(['subscribe', 'posts']);
    expect(change.code).toBe(1);
    expect(change.out).toContain('ADMIN_USER_IDS');
  });

  it('exits 2 on CLI usage errors without starting anything, and prints --help', async () => {
    expect((await run([])).code).toBe(2);
    const badPlatform = await run(['post', '1', '--platform', 'teams']);
    expect(badPlatform.code).toBe(2);
    expect(badPlatform.err).toContain('unknown platform "teams"');
    expect((await run(['post', '1', '--platform'])).code).toBe(2);
    expect(built).toEqual([]);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: directory-bot lookup');
  });

  it('reports a failure to start as exit 1 with the reason', async () => {
    const failing = createLookupCommand(async () => {
      throw new Error('DIRECTORY_TOKEN is required with DIRECTORY_BASE_URL');
    });
    const err: string[] = [];
    const code = await failing.run(['post', '1'], { stdout: () => {}, stderr: (l) => err.push(l) });
    expect(code).toBe(1);
    expect(err.join('\n')).toBe(
      'lookup: could not start: DIRECTORY_TOKEN is required with DIRECTORY_BASE_URL',
    );
  });
});
