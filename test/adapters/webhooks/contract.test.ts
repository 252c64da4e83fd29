import { afterAll } from 'vitest';
import { startWebhookFakes, WebhookBook, webhookAdapter } from '../../support/webhook-world.js';
import { describeChatAdapterContract } from '../chat-adapter-contract.js';

const fakes = await startWebhookFakes();
afterAll(() => fakes.close());

let counter = 0;
for (const fixture of fakes.all) {
  describeChatAdapterContract({
    platform: fixture.kind.platform,
    channelsCanGo: true,
    takesCommands: false,
    async open() {
      const book = new WebhookBook();
      const webhook = fixture.create();
      counter += 1;
      const name = `contract-${counter}`;
      book.add(fixture.kind.platform, {
        name,
        url: webhook.url,
        ...(webhook.secret ? { secret: webhook.secret } : {}),
      });
      return {
        adapter: webhookAdapter(fixture.kind, book),
        http: { mount: () => {} },
        channel: { platform: fixture.kind.platform, channelId: name },
        loseChannel: webhook.lose,
        close: async () => {},
      };
    },
  });
}
