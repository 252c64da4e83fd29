import { describe, expect, it } from 'vitest';
import { renderSlackWebhookMessage, SLACK_WEBHOOK } from '../../../adapters/slack/webhook.js';
import { blockKitViolations } from '../../fakes/slack/block-kit-limits.js';
import { FakeSlackWebhooks } from '../../fakes/webhooks/fake-slack-webhooks.js';
import { everyMessageKind } from '../../support/every-message-kind.js';
import { webhooksOn } from '../../support/webhook-world.js';

const fake = await new FakeSlackWebhooks().listen();
const slackWebhook = webhooksOn(fake, SLACK_WEBHOOK);

describe('Slack incoming webhooks', () => {
  it.each(everyMessageKind())('posts a %s as Block Kit within Slack’s limits', async (_name, message) => {
    expect(blockKitViolations(renderSlackWebhookMessage(message).blocks)).toEqual([]);
    const { post } = slackWebhook();
    expect(await post(message)).toEqual({ status: 'delivered' });
  });

  it('links the item instead of a button (a click would go to the app that owns the webhook)', () => {
    const body = renderSlackWebhookMessage({
      kind: 'post',
      title: 'Launch',
      url: 'https://directory.example/posts/launch',
      fallback: 'Launch',
      actions: [
        {
          kind: 'command',
          label: 'Follow',
          verb: 'follow',
          target: '1',
          command: 'subscribe comments --post 1',
        },
      ],
    });
    expect(body.blocks.some((b) => b['type'] === 'actions')).toBe(false);
    expect(JSON.stringify(body.blocks)).toContain(
      '<https://directory.example/posts/launch|Open in the directory>',
    );
  });

  it('pings exactly the configured user group and member, and nothing a comment says', async () => {
    const { post } = slackWebhook();
    await post({
      kind: 'comment',
      title: 'Comment <!channel>',
      text: 'cc <!here> <@U999> <!subteam^S999|@all>',
      fallback: 'Comment <!everyone>',
      mentions: [
        { kind: 'group', id: 'S0123ABCD', label: '@oncall' },
        { kind: 'user', id: 'U0456EFGH' },
      ],
    });
    expect(fake.posts.at(-1)?.pinged).toEqual(['group:S0123ABCD', 'user:U0456EFGH']);
  });

  it('cannot edit or delete: the adapter offers neither, so edits are never queued for it', () => {
    const { adapter } = slackWebhook();
    expect(adapter.edit).toBeUndefined();
    expect(adapter.delete).toBeUndefined();
    expect(SLACK_WEBHOOK.edits).toBe(false);
  });

  it('pauses a webhook whose app was removed (no_service) and drops a message Slack refuses', async () => {
    const { post, webhook } = slackWebhook();
    fake.removeWebhook(webhook.path);
    expect(await post({ kind: 'info', title: 'x', fallback: 'x' })).toMatchObject({
      status: 'rejected',
      code: 'webhook_gone',
      scope: 'destination',
    });
  });

  it('shares its pacing with its team, named by the URL', () => {
    const url = new URL(fake.addWebhook('T0TEAM42').url);
    expect(SLACK_WEBHOOK.workspaceOf?.(url)).toBe('T0TEAM42');
    expect(SLACK_WEBHOOK.redact(url)).not.toMatch(/s3cr3t/);
  });
});
