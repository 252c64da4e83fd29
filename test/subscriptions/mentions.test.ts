import { describe, expect, it } from 'vitest';
import { DISCORD_MENTIONS } from '../../adapters/discord/mentions.js';
import { SLACK_MENTIONS } from '../../adapters/slack/mentions.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import type { Message } from '../../src/ports/index.js';
import {
  addressMessage,
  parseMentions,
  parseMentionTarget,
  parseSubscriptionSpec,
} from '../../src/subscriptions/index.js';

const comment = (body: string) =>
  makeFeedItem(
    'comments',
    'new',
    {
      type: 'comment',
      comment: {
        id: '1',
        body,
        createdAt: '2026-01-01T00:00:00Z',
        user: { id: '7', name: 'Ada', username: 'ada', redacted: false },
        postId: '42',
      },
    },
    1000,
  );

const message: Message = { kind: 'comment', title: 'A comment', fallback: 'A comment' };

describe('mention targets', () => {
  it('reads kind:id, kind:id|Label and the forms chat clients paste', () => {
    expect(parseMentionTarget('role:112233445566778899')).toEqual({ kind: 'role', id: '112233445566778899' });
    expect(parseMentionTarget('user:jane@contoso.com|Jane Doe')).toEqual({
      kind: 'user',
      id: 'jane@contoso.com',
      label: 'Jane Doe',
    });
    expect(parseMentionTarget('<@&112233445566778899>')).toEqual({ kind: 'role', id: '112233445566778899' });
    expect(parseMentionTarget('<@!112233445566778899>')).toEqual({ kind: 'user', id: '112233445566778899' });
    expect(parseMentionTarget('<!subteam^S0123ABCD|@oncall>')).toEqual({
      kind: 'group',
      id: 'S0123ABCD',
      label: '@oncall',
    });
    expect(parseMentionTarget('<@U0123ABCD>')).toEqual({ kind: 'user', id: 'U0123ABCD' });
  });

  it.each(['@everyone', '@here', '<!channel>', '<!here>', 'everyone', '@all'])(
    'never takes a broadcast (%s): a subscription pings the people named',
    (text) => {
      expect(parseMentionTarget(text)).toEqual(expect.stringContaining('would ping everyone'));
    },
  );

  it('refuses ids and labels that could carry markup', () => {
    expect(typeof parseMentionTarget('user:U123> <!channel')).toBe('string');
    expect(typeof parseMentionTarget('role:1|<b>x</b>')).toBe('string');
    expect(typeof parseMentionTarget('team:1')).toBe('string');
  });

  it("checks targets against what the channel's platform can ping", () => {
    expect(parseMentions(['role:112233445566778899'], 'discord', DISCORD_MENTIONS)).toMatchObject({
      ok: true,
    });
    expect(parseMentions(['role:112233445566778899'], 'slack', SLACK_MENTIONS)).toEqual({
      ok: false,
      problem: expect.stringContaining('slack cannot mention a role'),
    });
    expect(parseMentions(['user:alice'], 'discord', DISCORD_MENTIONS)).toEqual({
      ok: false,
      problem: expect.stringContaining('17 to 20 digits'),
    });
    expect(parseMentions(['user:U1'], 'teams-webhook', undefined)).toEqual({
      ok: false,
      problem: 'teams-webhook cannot mention anyone',
    });
  });
});

describe('addressing a message', () => {
  const subscription = {
    mentions: [{ kind: 'role' as const, id: '112233445566778899' }],
    mentionOn: ['launch'],
    sender: { name: 'Radar' },
  };

  it('pings the configured targets only when the item matches --mention-on', () => {
    expect(addressMessage(message, subscription, comment('our launch is today')).mentions).toEqual(
      subscription.mentions,
    );
    expect(addressMessage(message, subscription, comment('relaunched')).mentions).toBeUndefined();
    expect(
      addressMessage(message, { mentions: subscription.mentions }, comment('anything')).mentions,
    ).toEqual(subscription.mentions);
  });

  it('takes whom to ping from the subscription alone, whatever the item says', () => {
    const addressed = addressMessage(
      message,
      { sender: { name: 'Radar' } },
      comment('<@&999999999999999999> launch @everyone'),
    );
    expect(addressed.mentions).toBeUndefined();
    expect(addressed.sender).toEqual({ name: 'Radar' });
  });
});

describe('SUBSCRIPTIONS with webhooks and mentions', () => {
  it('reads webhook:<name> entries with mention=, mention-on=, webhook-name= and webhook-avatar=', () => {
    const { seeds, errors } = parseSubscriptionSpec(
      'webhook:team-news=comments?keyword=ai&mention=role:112233445566778899,user:223344556677889900&mention-on=launch&webhook-name=Radar&webhook-avatar=https://img.example/r.png',
    );
    expect(errors).toEqual([]);
    expect(seeds).toEqual([
      {
        platform: 'webhook',
        channelId: 'team-news',
        feed: 'comments',
        filters: { keywords: ['ai'] },
        mentions: [
          { kind: 'role', id: '112233445566778899' },
          { kind: 'user', id: '223344556677889900' },
        ],
        mentionOn: ['launch'],
        sender: { name: 'Radar', avatarUrl: 'https://img.example/r.png' },
      },
    ]);
  });

  it.each([
    ['webhook:Team_News=posts', 'is not a webhook name'],
    ['webhook:news=posts?mention=@everyone', 'would ping everyone'],
    ['webhook:news=posts?mention-on=launch', 'mention-on needs mention='],
    ['slack:C0123ABCD=posts?webhook-name=Radar', 'webhook destinations only'],
    ['webhook:news=posts?webhook-avatar=javascript:alert(1)', 'absolute http(s) URL'],
    ['webhook:news=posts?webhook-name=Discord%20bot', 'may not contain'],
  ])('names what is wrong in %s', (entry, problem) => {
    const { errors } = parseSubscriptionSpec(entry);
    expect(errors).toEqual([expect.stringContaining(problem)]);
  });
});
