import { createDiscordAdapter } from '../../../adapters/discord/index.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { discordKeyPair, signedInteractionHeaders } from '../../fakes/discord/signing.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { APP_ID, CHANNEL_ID, commandInteraction } from '../../support/discord-interactions.js';
import { startMountServer } from '../../support/mount-server.js';
import { describeChatAdapterContract } from '../chat-adapter-contract.js';

const TOKEN = 'discord-contract-token';

describeChatAdapterContract({
  platform: 'discord',
  channelsCanGo: true,
  async open() {
    const rest = new FakeDiscordRest({ token: TOKEN });
    await rest.listen();
    rest.addChannel(CHANNEL_ID);
    const server = await startMountServer();
    const keys = discordKeyPair();
    // HTTP interactions rather than the gateway: the same flow, without a socket to fake.
    const adapter = createDiscordAdapter({
      token: TOKEN,
      applicationId: APP_ID,
      publicKey: keys.publicHex,
      apiUrl: rest.url,
      gateway: false,
      logger: createCapturingLogger(),
    });
    return {
      adapter,
      http: server.http,
      channel: { platform: 'discord', channelId: CHANNEL_ID },
      loseChannel: () => rest.deleteChannel(CHANNEL_ID),
      async invoke(text) {
        const [subcommand = '', ...rest] = text.split(' ');
        const options = rest.length > 0 ? [{ name: subcommand, type: 3, value: rest.join(' ') }] : [];
        const raw = JSON.stringify(commandInteraction(subcommand, options));
        const res = await fetch(`${server.url}/discord/interactions`, {
          method: 'POST',
          headers: signedInteractionHeaders(keys.privateKey, raw),
          body: raw,
        });
        return res.text();
      },
      async close() {
        await server.close();
        await rest.close();
      },
    };
  },
});
