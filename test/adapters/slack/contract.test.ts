import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../../fakes/slack/slash-command.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { startMountServer } from '../../support/mount-server.js';
import { describeChatAdapterContract } from '../chat-adapter-contract.js';

const TOKEN = 'xoxb-contract';
const SECRET = 'contract-signing-secret';

describeChatAdapterContract({
  platform: 'slack',
  channelsCanGo: true,
  async open() {
    const slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    slack.addUser('U1');
    const server = await startMountServer();
    const adapter = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    });
    return {
      adapter,
      http: server.http,
      channel: { platform: 'slack', channelId: 'C1', workspaceId: 'T1' },
      loseChannel: () => slack.deleteChannel('C1'),
      async invoke(text) {
        const res = await postSlashCommand(server.url, SECRET, { text, responseUrl: slack.responseUrl() });
        return res.text();
      },
      async close() {
        await server.close();
        await slack.close();
      },
    };
  },
});
