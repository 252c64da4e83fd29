import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDiscordCommands } from '../../../adapters/discord/index.js';
import { COMMAND_REGISTRY } from '../../../src/commands/index.js';
import { modalProblems, modalSubmitInteraction } from '../../fakes/discord/fake-discord-modals.js';
import { discordKeyPair } from '../../fakes/discord/signing.js';
import { type Harness, useSubscriptionHarness } from '../../support/command-harness.js';
import { type DiscordEndpoint, startDiscordEndpoint } from '../../support/discord-endpoint.js';
import {
  CHANNEL_ID,
  commandInteraction,
  MANAGER_PERMISSIONS,
  MEMBER_PERMISSIONS,
  OTHER_CHANNEL_ID,
} from '../../support/discord-interactions.js';

interface Modal {
  custom_id: string;
  title: string;
  components: { type: number; components: { custom_id: string; label: string; required: boolean }[] }[];
}

interface MessageData {
  content: string;
  flags?: number;
  embeds?: { title?: string }[];
}

/**
 * `/directory subscribe` as a Discord modal, end to end over the HTTP interactions endpoint: the
 * real Discord adapter and command handler against the emulator, signed interactions as Discord
 * sends them, and every modal checked against the spec and Discord's documented limits.
 */
describe('the subscribe form on Discord', () => {
  const harness = useSubscriptionHarness();
  let h: Harness;
  let discord: DiscordEndpoint;
  const now = 1_750_000_000_000;

  beforeEach(async () => {
    h = harness();
    discord = await startDiscordEndpoint(h.handler, () => now);
  });

  afterEach(async () => {
    await discord.close();
  });

  async function openForm(
    permissions = MANAGER_PERMISSIONS,
  ): Promise<{ base: Record<string, unknown>; modal: Modal }> {
    const base = commandInteraction('subscribe', [], { permissions });
    const res = await discord.post(base);
    const callback = (await res.json()) as { type: number; data: Modal };
    expect(callback.type).toBe(9);
    expect(modalProblems(callback)).toEqual([]);
    return { base, modal: callback.data };
  }

  async function submit(
    opened: { base: Record<string, unknown>; modal: Modal },
    values: Record<string, string>,
    edit: (interaction: Record<string, unknown>) => void = () => undefined,
  ): Promise<{ type: number; data: MessageData }> {
    const interaction = modalSubmitInteraction(opened.base, opened.modal, values);
    edit(interaction);
    return (await (await discord.post(interaction)).json()) as { type: number; data: MessageData };
  }

  async function typed(subcommandOptions: { name: string; type: number; value: string | number }[]) {
    const res = await discord.post(
      commandInteraction('subscribe', subcommandOptions, { permissions: MANAGER_PERMISSIONS }),
    );
    return (await res.json()) as { type: number; data: MessageData };
  }

  it('registers subscribe with its feed optional, so the bare command can be sent to open the form', () => {
    const [root] = buildDiscordCommands(COMMAND_REGISTRY.definitions);
    const subcommands = (root?.options ?? []) as {
      name: string;
      options?: { name: string; required?: boolean }[];
    }[];
    const feed = subcommands.find((s) => s.name === 'subscribe')?.options?.find((o) => o.name === 'feed');
    expect(feed?.required).toBe(false);
    // Commands without a form keep their required options.
    const post = subcommands.find((s) => s.name === 'post')?.options?.[0];
    expect(post?.required).toBe(true);
  });

  it('opens a modal of five text inputs, feed first, remembering the channel in a versioned custom id', async () => {
    const { modal } = await openForm();
    expect(modal.custom_id).toBe(`dirbot:v1:form:subscribe:${CHANNEL_ID}`);
    expect(modal.title).toBe('Subscribe this channel');
    expect(modal.components.map((row) => row.components[0]?.custom_id)).toEqual([
      'feed',
      'keyword',
      'exclude',
      'post',
      'backfill',
    ]);
    expect(modal.components[0]?.components[0]?.required).toBe(true);
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('refuses a member without Manage Channels before any modal opens, with the typed refusal', async () => {
    const res = await discord.post(commandInteraction('subscribe', [], { permissions: MEMBER_PERMISSIONS }));
    const answer = (await res.json()) as { type: number; data: MessageData };
    expect(answer.type).toBe(4);
    expect(answer.data.flags).toBe(64);
    expect(answer.data.content).toContain("You cannot change this channel's subscriptions.");
    expect(answer.data.content).toContain('Manage Channels permission');
  });

  it('subscribes on submit and answers with the typed command confirmation and preview', async () => {
    h.emulator.admin.addPost({ name: 'Rocket Notes', tagline: 'AI notes for rockets', votesCount: 80 });
    const opened = await openForm();
    const answer = await submit(opened, { feed: 'posts', keyword: 'ai, rockets', exclude: 'crypto' });
    expect(answer.type).toBe(4);
    const [subscription] = await h.subscriptions.forChannel('discord', CHANNEL_ID);
    expect(subscription?.filters).toEqual({ keywords: ['ai', 'rockets'], exclude: ['crypto'] });

    await h.subscriptions.remove('discord', CHANNEL_ID, subscription?.id ?? '');
    const fromText = await typed([
      { name: 'feed', type: 3, value: 'posts' },
      { name: 'keyword', type: 3, value: 'ai, rockets' },
      { name: 'exclude', type: 3, value: 'crypto' },
    ]);
    const [again] = await h.subscriptions.forChannel('discord', CHANNEL_ID);
    const withoutId = (data: MessageData, id: string | undefined) => ({
      ...data,
      content: data.content.replaceAll(id ?? '', 'ID'),
    });
    expect(withoutId(answer.data, subscription?.id)).toEqual(withoutId(fromText.data, again?.id));
    expect(answer.data.embeds?.[0]?.title).toBe('Rocket Notes');
    expect(discord.rest.problems).toEqual([]);
  });

  it.each([
    [
      'no feed',
      { keyword: 'ai' },
      [{ name: 'keyword', type: 3, value: 'ai' }],
      'Missing <feed>: the feed to follow.',
    ],
    [
      'an unknown feed',
      { feed: 'tweets' },
      [{ name: 'feed', type: 3, value: 'tweets' }],
      '<feed> expects posts, comments, collections, live, notifications, got "tweets".',
    ],
    [
      'a post filter on the posts feed',
      { feed: 'posts', post: 'notion-ai' },
      [
        { name: 'feed', type: 3, value: 'posts' },
        { name: 'post', type: 3, value: 'notion-ai' },
      ],
      '--post does not apply to the posts feed.',
    ],
  ] as const)(
    'names %s in an ephemeral reply, in the typed command words, and subscribes nothing',
    async (_name, values, options, message) => {
      const opened = await openForm();
      const answer = await submit(opened, values);
      const fromText = await typed([...options]);
      expect(answer.type).toBe(4);
      expect(answer.data.flags).toBe(64);
      expect(answer.data).toEqual(fromText.data);
      // Markdown-escaped like every reply (`\<feed\>`).
      expect(answer.data.content.replaceAll('\\', '')).toContain(message);
      expect(await h.subscriptions.list()).toEqual([]);
    },
  );

  it('decides permission from the signed submission: without Manage Channels it is refused', async () => {
    const opened = await openForm();
    const answer = await submit(opened, { feed: 'posts' }, (interaction) => {
      (interaction['member'] as { permissions: string }).permissions = MEMBER_PERMISSIONS;
    });
    expect(answer.data.content).toContain("You cannot change this channel's subscriptions.");
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('never lets the custom id choose another channel than the one submitting', async () => {
    const opened = await openForm();
    const answer = await submit(opened, { feed: 'posts' }, (interaction) => {
      interaction['channel'] = { id: OTHER_CHANNEL_ID, type: 0 };
      interaction['channel_id'] = OTHER_CHANNEL_ID;
    });
    expect(answer.data.content).toBe('This form has expired. Run the command again to open a new one.');
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('answers a modal of another form version that it expired', async () => {
    const opened = await openForm();
    const answer = await submit(
      { ...opened, modal: { ...opened.modal, custom_id: `dirbot:v0:form:subscribe:${CHANNEL_ID}` } },
      { feed: 'posts' },
    );
    expect(answer.data.content).toBe('This form has expired. Run the command again to open a new one.');
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it.each([
    ['signed by another key', { key: discordKeyPair() }],
    ['signed more than five minutes ago (a replay)', { timestamp: String(Math.floor(now / 1000) - 301) }],
  ])('refuses a MODAL_SUBMIT %s with 401 and changes nothing', async (_name, forged) => {
    const opened = await openForm();
    const res = await discord.post(
      modalSubmitInteraction(opened.base, opened.modal, { feed: 'posts' }),
      forged,
    );
    expect(res.status).toBe(401);
    expect(await h.subscriptions.list()).toEqual([]);
  });
});
