import { describe, expect, it } from 'vitest';
import { MATTERMOST_WEBHOOK, renderMattermostMessage } from '../../../adapters/webhooks/index.js';
import { FakeMattermost } from '../../fakes/webhooks/fake-mattermost.js';
import { everyMessageKind } from '../../support/every-message-kind.js';
import { webhooksOn } from '../../support/webhook-world.js';

const fake = await new FakeMattermost().listen();
const mattermostWebhook = webhooksOn(fake, MATTERMOST_WEBHOOK);

describe('Mattermost incoming webhooks', () => {
  it.each(everyMessageKind())(
    'posts a %s as a message attachment Mattermost takes',
    async (_name, message) => {
      const { post } = mattermostWebhook();
      expect(await post(message)).toEqual({ status: 'delivered' });
      expect(fake.posts.at(-1)?.body['attachments']).toHaveLength(1);
    },
  );

  it("pings the configured user and group in the post's text, and no @name a comment writes", async () => {
    const { post } = mattermostWebhook();
    await post({
      kind: 'comment',
      title: '@channel look',
      text: 'hey @all and @alice, @here',
      author: { name: '@bob' },
      fallback: '@channel',
      mentions: [
        { kind: 'user', id: 'carol' },
        { kind: 'group', id: 'sre-team' },
      ],
    });
    const last = fake.posts.at(-1);
    expect(last?.pinged).toEqual(['carol', 'sre-team']);
    expect(JSON.stringify(last?.body['attachments'])).not.toMatch(/@(all|alice|here|channel|bob)/);
  });

  it('posts under the subscription’s name and icon (shown where the server allows overrides)', () => {
    const body = renderMattermostMessage({
      kind: 'info',
      title: 'x',
      fallback: 'x',
      sender: { name: 'Radar', avatarUrl: 'https://img.example/r.png' },
    });
    expect(body).toMatchObject({ username: 'Radar', icon_url: 'https://img.example/r.png' });
  });

  it('pauses a webhook the server no longer knows (400 "Invalid webhook")', async () => {
    const { post, webhook } = mattermostWebhook();
    fake.deleteWebhook(webhook.id);
    expect(await post({ kind: 'info', title: 'x', fallback: 'x' })).toMatchObject({
      status: 'rejected',
      code: 'webhook_gone',
      scope: 'destination',
    });
  });
});
