import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { createSlackMessageLinks, teamDomainOf } from '../../../adapters/slack/message-links.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { slackScript } from '../../support/slack-command-script.js';

describe('links to Slack messages', () => {
  it("are Slack's archive permalinks, a reply's naming its thread", () => {
    const links = createSlackMessageLinks();
    links.learnSole('T1', 'https://acme.slack.com/');
    const destination = { platform: 'slack', channelId: 'C1' };
    expect(links.link(destination, { messageId: '1700000000.000100' })).toBe(
      'https://acme.slack.com/archives/C1/p1700000000000100',
    );
    expect(links.link(destination, { messageId: '1700000001.000200', threadId: '1700000000.000100' })).toBe(
      'https://acme.slack.com/archives/C1/p1700000001000200?thread_ts=1700000000.000100&cid=C1',
    );
  });

  it('learn each workspace of a multi-workspace install from the requests it sends, and link nothing before', () => {
    const links = createSlackMessageLinks();
    const destination = { platform: 'slack', channelId: 'C9', workspaceId: 'T9' };
    expect(links.link(destination, { messageId: '1.2' })).toBeUndefined();
    const team = teamDomainOf({ team_id: 'T9', team_domain: 'Widgets', channel_id: 'C9' });
    expect(team).toEqual({ teamId: 'T9', domain: 'Widgets' });
    links.learnDomain(team!.teamId, team!.domain);
    expect(links.link(destination, { messageId: '1.2' })).toBe('https://widgets.slack.com/archives/C9/p12');
    expect(teamDomainOf({ team: { id: 'T8', domain: 'gadgets' } })).toEqual({
      teamId: 'T8',
      domain: 'gadgets',
    });
    // A domain that is not one cannot steer the link elsewhere.
    links.learnDomain('T7', 'evil.example/x');
    expect(links.link({ ...destination, workspaceId: 'T7' }, { messageId: '1.2' })).toBeUndefined();
  });

  describe('from the adapter', () => {
    let slack: FakeSlackApi;
    let adapter: ChatAdapter;
    beforeEach(async () => {
      slack = await new FakeSlackApi().start();
      slack.addToken('xoxb-links', 'T1');
      slack.addChannel('C1');
      adapter = createSlackAdapter({
        botToken: 'xoxb-links',
        signingSecret: 'secret',
        apiUrl: slack.apiUrl,
        logger: createCapturingLogger(),
      });
    });
    afterEach(async () => {
      await adapter.stop();
      await slack.close();
    });

    it('links a posted message at the address auth.test gave at start-up', async () => {
      expect(
        adapter.messageLink?.({ platform: 'slack', channelId: 'C1' }, { messageId: '1.2' }),
      ).toBeUndefined();
      await adapter.start({
        http: { mount: () => {} },
        commands: new FakeCommandHandler(slackScript),
        logger: createCapturingLogger(),
      });
      const destination = { platform: 'slack', channelId: 'C1' };
      const outcome = await adapter.deliver(
        destination,
        { kind: 'info', title: 'Hi', fallback: 'Hi' },
        {
          idempotencyKey: 'k',
        },
      );
      if (outcome.status !== 'delivered' || outcome.platformMessageId === undefined)
        throw new Error('not posted');
      expect(adapter.messageLink?.(destination, { messageId: outcome.platformMessageId })).toBe(
        `https://fake.slack.com/archives/C1/p${outcome.platformMessageId.replace('.', '')}`,
      );
    });
  });
});
